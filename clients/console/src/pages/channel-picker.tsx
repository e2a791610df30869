import type { Schemas } from '../api/client';

export interface ChannelChoice {
  slug: string;
  label: string;
}

export const channelChoices = (app: Schemas['App']): ChannelChoice[] =>
  app.schemes.flatMap((s) => s.channels.map((c) => ({ slug: c.slug, label: `${s.name} · ${c.name} (${c.device_type})` })));

/** A labelled select of an app's channels. */
export function ChannelPicker({ id, choices, value, onChange }: { id: string; choices: ChannelChoice[]; value: string; onChange: (slug: string) => void }) {
  return (
    <div class="field">
      <label for={id}>Channel</label>
      <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {choices.map((c) => (
          <option key={c.slug} value={c.slug}>
            {c.label}
          </option>
        ))}
      </select>
    </div>
  );
}
