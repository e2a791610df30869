import { api, must } from '../api/client';
import type { Schemas } from '../api/client';
import { useApi } from '../api/use-api';
import { Snippet } from '../ui/copy';
import { Show } from '../ui/states';

type ChannelTesterDevices = Schemas['ChannelTesterDevices'];

const FIT_LABEL: Record<string, string> = { in: 'included', out: 'missing', unknown: "can't tell" };

/**
 * An iOS channel's testers' registered devices against its newest build's provisioning profile: the
 * ones it leaves out, and Apple's device list file of them to paste in the developer portal
 * (Devices → Register Multiple Devices) before the next ad hoc build.
 */
export function TesterDevicesPanel({ channelId, label }: { channelId: number; label: string }) {
  const devices = useApi(() => must(api.GET('/api/channels/{id}/tester_devices', { params: { path: { id: String(channelId) } } })), [channelId]);
  const headingId = `devices-${channelId}`;
  return (
    <article aria-labelledby={headingId} class="subpanel">
      <h3 id={headingId}>Devices · {label}</h3>
      <Show state={devices} what="devices">
        {(list) => <DeviceTable list={list} channelId={channelId} />}
      </Show>
    </article>
  );
}

function DeviceTable({ list, channelId }: { list: ChannelTesterDevices; channelId: number }) {
  if (list.devices.length === 0) return <p class="muted">No tester of this channel has registered a device yet (they do it at /udid on the device).</p>;
  const build = list.latest_build;
  return (
    <>
      <p class="muted">
        {!build
          ? 'No build yet.'
          : build.profile_lists_devices
            ? `Newest build ${build.release_version} (${build.build_version}) leaves out ${list.missing} of ${list.devices.length} device${list.devices.length === 1 ? '' : 's'}.`
            : `Newest build ${build.release_version} (${build.build_version}) is not limited to listed devices.`}
      </p>
      <div class="table-wrap">
        <table class="rows">
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Tester</th>
              <th scope="col">UDID</th>
              <th scope="col">Newest build</th>
            </tr>
          </thead>
          <tbody>
            {list.devices.map((d) => (
              <tr key={d.id}>
                <td>
                  {d.name} <span class="muted small">{d.product}</span>
                </td>
                <td>{d.tester_email}</td>
                <td>
                  <code>{d.udid}</code>
                </td>
                <td class={d.in_latest_build === 'out' ? 'problem' : undefined}>{d.in_latest_build ? FIT_LABEL[d.in_latest_build] : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {list.missing > 0 && <Snippet title="Devices to register with Apple" text={list.apple_device_list} copyLabel={`Copy the device list of channel ${channelId}`} />}
    </>
  );
}
