interface Template {
  operationId: string;
  method: string;
  pattern: RegExp;
  /** The template's parameter names, in the order of the pattern's groups. */
  names: string[];
  /** More literal segments win: `/api/apps/versions` over `/api/apps/{id}`. */
  literals: number;
}

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete'] as const;

/**
 * Finds the OpenAPI operation a request is for, from the document's path
 * templates, so a scoped token is judged by the same names the document and
 * the scope table use. A HEAD without an operation of its own is its GET.
 */
export class OperationIndex {
  private readonly templates: Template[];

  constructor(paths: Record<string, Partial<Record<(typeof METHODS)[number], { operationId?: string }>>>) {
    this.templates = Object.entries(paths)
      .flatMap(([template, item]) =>
        METHODS.filter((m) => item[m]?.operationId).map((m) => ({
          operationId: item[m]!.operationId!,
          method: m.toUpperCase(),
          pattern: new RegExp(`^${template.split(/\{[^}]+\}/).map(escape).join('([^/]+)')}$`),
          names: [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
          literals: template.split('/').filter((s) => s && !s.startsWith('{')).length,
        })),
      )
      .sort((a, b) => b.literals - a.literals);
  }

  operationOf(method: string, path: string): string | undefined {
    return this.match(method, path)?.operationId;
  }

  /** The operation and its path parameters (decoded). */
  match(method: string, path: string): { operationId: string; params: Record<string, string> } | undefined {
    const find = (m: string) => this.templates.find((t) => t.method === m && t.pattern.test(path));
    const template = find(method) ?? (method === 'HEAD' ? find('GET') : undefined);
    if (!template) return undefined;
    const values = template.pattern.exec(path)!.slice(1);
    return { operationId: template.operationId, params: Object.fromEntries(template.names.map((name, i) => [name, safeDecode(values[i]!)])) };
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
