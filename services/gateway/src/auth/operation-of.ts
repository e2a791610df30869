interface Template {
  operationId: string;
  method: string;
  pattern: RegExp;
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
          pattern: new RegExp(`^${template.split(/\{[^}]+\}/).map(escape).join('[^/]+')}$`),
          literals: template.split('/').filter((s) => s && !s.startsWith('{')).length,
        })),
      )
      .sort((a, b) => b.literals - a.literals);
  }

  operationOf(method: string, path: string): string | undefined {
    const find = (m: string) => this.templates.find((t) => t.method === m && t.pattern.test(path))?.operationId;
    return find(method) ?? (method === 'HEAD' ? find('GET') : undefined);
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
