import { useState } from 'preact/hooks';

/** Copies `text` to the clipboard; says so for a moment (and to screen readers). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | undefined>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
    setTimeout(() => setCopied(undefined), 2500);
  };
  return (
    <span class="copy">
      <button type="button" class="small-button" onClick={() => void copy()}>
        {label}
      </button>
      <span role="status" class="muted small">
        {copied === 'yes' ? 'Copied' : copied === 'no' ? 'Select the text and copy it' : ''}
      </span>
    </span>
  );
}

/** A command or snippet to paste somewhere, with its copy button. */
export function Snippet({ title, text, copyLabel }: { title: string; text: string; copyLabel: string }) {
  return (
    <div class="snippet">
      <div class="snippet-head">
        <h3>{title}</h3>
        <CopyButton text={text} label={copyLabel} />
      </div>
      <pre tabIndex={0}>
        <code>{text}</code>
      </pre>
    </div>
  );
}
