// A vehicle's page (docs/portal.md#vehicles): the VIN and plates it is known by, and its inspections on a
// timeline, oldest first, with the mileage read on each and what its comparison found.
import { api, ApiError } from '../api.js';
import { ErrorNotice, Loading } from '../components/notices.js';
import { useLoad } from '../data.js';
import { count, odometerText, STATUS_NAMES, when } from '../format.js';
import { inspectionHref } from '../router.js';

const notFound = (failure: unknown) =>
  failure instanceof ApiError && failure.status === 404
    ? 'No such vehicle, or not one you may see.'
    : failure instanceof Error
      ? failure.message
      : String(failure);

export function VehicleView({ id }: { id: string }) {
  const { data: vehicle, error } = useLoad(
    () => api.GET('/portal/api/vehicles/{id}', { params: { path: { id } } }),
    [id],
    { describe: notFound },
  );
  if (error)
    return (
      <main>
        <a href="#/inspections">← Inspections</a>
        <ErrorNotice text={error} />
      </main>
    );
  if (!vehicle) return <Loading />;
  const plates = vehicle.keys.filter((k) => k.kind === 'plate').map((k) => k.value);
  return (
    <main class="vehicle-page">
      <a href="#/inspections" class="back">
        ← Inspections
      </a>
      <h1>{vehicle.plate ?? vehicle.vin ?? 'Vehicle'}</h1>
      <p class="muted">
        VIN {vehicle.vin ?? 'not known'} · plate{plates.length > 1 ? 's' : ''}{' '}
        {plates.length > 0 ? plates.join(', ') : 'not known'} · {count(vehicle.inspections, 'inspection')}
      </p>
      <section class="panel" aria-labelledby="history-title">
        <h2 id="history-title">Inspections, oldest first</h2>
        <ol class="vehicle-timeline">
          {vehicle.history.map((entry) => (
            <li key={entry.inspection_id}>
              <time dateTime={entry.created_at}>{when(entry.created_at)}</time>
              <a href={inspectionHref(entry.inspection_id)}>{entry.case_id}</a>
              <span class={`status status-${entry.status}`}>
                {STATUS_NAMES[entry.status as keyof typeof STATUS_NAMES] ?? entry.status}
              </span>
              <span>{odometerText(entry.odometer ?? undefined) ?? 'mileage not read'}</span>
              {entry.possible_new_damage && (
                <span class="badge flag-possible_new_damage">Possible new damage</span>
              )}
              {entry.new_damage && <span class="badge flag-new_damage">New damage</span>}
              {entry.odometer_rollback && <span class="badge flag-odometer_rollback">Odometer rollback</span>}
            </li>
          ))}
        </ol>
      </section>
    </main>
  );
}
