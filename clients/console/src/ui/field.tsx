import type { JSX } from 'preact';

let next = 0;
/** A labelled input and the server's complaint about it, if any. */
export function Field({ label, name, problems, ...input }: { label: string; name: string; problems?: string[] | undefined } & JSX.InputHTMLAttributes<HTMLInputElement>) {
  const id = `f-${name}-${(next += 1)}`;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} name={name} aria-invalid={problems ? true : undefined} aria-describedby={problems ? `${id}-problem` : undefined} {...input} />
      {problems && (
        <span id={`${id}-problem`} class="problem">
          {label} {problems.join(', ')}
        </span>
      )}
    </div>
  );
}

/** The fields of a submitted form, as text. */
export function formValues(event: Event): Record<string, string> {
  event.preventDefault();
  const form = event.currentTarget as HTMLFormElement;
  return Object.fromEntries([...new FormData(form).entries()].map(([k, v]) => [k, String(v)]));
}
