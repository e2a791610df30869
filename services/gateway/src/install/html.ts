/** Escapes text for HTML element content and quoted attributes. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Font Awesome class names only (`fa-solid fa-flask`): anything else is dropped. */
export function iconClasses(value: string | undefined): string {
  return (value ?? '')
    .split(/\s+/)
    .filter((c) => /^fa[a-z0-9-]*$/.test(c))
    .join(' ');
}

export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** The page frame: self-hosted CSS and icons only, sized for phones first. */
export function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Hangar</title>
<link rel="stylesheet" href="/assets/fontawesome/css/all.min.css">
<link rel="stylesheet" href="/assets/hangar.css">
</head>
<body>
<main class="page">
${body}
</main>
<footer class="footer">Distributed with Hangar</footer>
</body>
</html>`;
}
