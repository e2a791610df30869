import type { Schemas } from '../api/client';

export interface ChannelChoice {
  slug: string;
  label: string;
  /** The app it belongs to, when choices span apps (grouped by it). */
  app?: string;
}

export const channelChoices = (app: Schemas['App']): ChannelChoice[] =>
  app.schemes.flatMap((s) => s.channels.map((c) => ({ slug: c.slug, label: `${s.name} · ${c.name} (${c.device_type})` })));

/**
 * A labelled select of channels, grouped by app when they span apps. With `placeholder`, nothing
 * is chosen until the user chooses (value ''): a hurried choice never lands on someone else's app.
 */
export function ChannelPicker({ id, choices, value, onChange, placeholder }: { id: string; choices: ChannelChoice[]; value: string; onChange: (slug: string) => void; placeholder?: string }) {
  const apps = [...new Set(choices.map((c) => c.app))];
  const options = (list: ChannelChoice[]) =>
    list.map((c) => (
      <option key={c.slug} value={c.slug}>
        {c.label}
      </option>
    ));
  return (
    <div class="field">
      <label for={id}>Channel</label>
      <select id={id} value={value} required={placeholder !== undefined} onChange={(e) => onChange(e.currentTarget.value)}>
        {placeholder !== undefined && (
          <option value="" disabled>
            {placeholder}
          </option>
        )}
        {apps.length > 1 || apps[0] !== undefined
          ? apps.map((app) => (
              <optgroup key={app} label={app ?? ''}>
                {options(choices.filter((c) => c.app === app))}
              </optgroup>
            ))
          : options(choices)}
      </select>
    </div>
  );
}
