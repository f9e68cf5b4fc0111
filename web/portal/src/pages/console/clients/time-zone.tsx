// The time zone a service window is read in: an IANA name, offered from the browser's own list as one
// types (the service checks it again).
const ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];

export function TimeZoneInput({ id, value }: { id: string; value: string }) {
  return (
    <div class="field">
      <label for={id}>Time zone of the service window</label>
      <input id={id} name="timezone" list={`${id}-zones`} required defaultValue={value} autocomplete="off" />
      <datalist id={`${id}-zones`}>
        {ZONES.map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
    </div>
  );
}
