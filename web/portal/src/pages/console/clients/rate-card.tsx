// A client's rate card in the console (docs/estimate.md#the-rate-card): currency, hourly rates, the
// total-loss share, part prices (typed, pasted or imported from a CSV file as `part,price` lines) and,
// for those who need them, rule overrides as JSON. Saving makes a new version, audited; the estimates of
// the versions saved from then on use it.
import { useState } from 'preact/hooks';
import { api, errorText, type Answer, type Body } from '../../../api.js';
import { ErrorNotice, Loading } from '../../../components/notices.js';
import { useLoad } from '../../../data.js';
import { field } from '../../../form.js';
import { when } from '../../../format.js';
import type { ClientTabProps } from './detail.js';

type Stored = Answer<'/portal/api/clients/{id}/rate-card'>;
type Card = Body<'/portal/api/clients/{id}/rate-card', 'put'>;

const pricesText = (prices: Record<string, number>) =>
  Object.entries(prices)
    .map(([part, price]) => `${part},${price}`)
    .join('\n');

/** `part,price` lines (a header line and blank lines are skipped); throws naming the first bad line. */
function pricesOf(text: string): Record<string, number> {
  const prices: Record<string, number> = {};
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const [part = '', price = ''] = line.split(/[,;]/).map((cell) => cell.trim());
    if (index === 0 && !Number.isFinite(Number(price))) continue;
    if (!/^[a-z0-9_]{1,64}$/.test(part) || price === '' || !Number.isFinite(Number(price)))
      throw new Error(`Part prices, line ${index + 1}: expected part,price (e.g. front_bumper,410).`);
    prices[part] = Number(price);
  }
  return prices;
}

export function RateCardPanel({ client }: ClientTabProps) {
  const path = { params: { path: { id: client.id } } };
  const { data: stored, set } = useLoad(
    () => api.GET('/portal/api/clients/{id}/rate-card', path),
    [client.id],
  );
  const [prices, setPrices] = useState<string>();
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  if (!stored) return <Loading />;
  const { card } = stored;

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const number = (name: string) => Number(field(form, name));
    setError(undefined);
    setNotice(undefined);
    try {
      const rules = field(form, 'rules');
      const next: Card = {
        currency: field(form, 'currency').toUpperCase(),
        labour_rate: number('labour_rate'),
        paint_rate: number('paint_rate'),
        paint_material_rate: number('paint_material_rate'),
        total_loss_share: number('total_loss_percent') / 100,
        part_prices: pricesOf(prices ?? pricesText(card.part_prices)),
        ...(rules && { rules: JSON.parse(rules) as Card['rules'] }),
      };
      const saved: Stored = await api.PUT('/portal/api/clients/{id}/rate-card', { ...path, body: next });
      set(saved);
      setPrices(undefined);
      setNotice(`Saved as version ${saved.version} at ${when(new Date().toISOString())}.`);
    } catch (failure) {
      setError(failure instanceof SyntaxError ? `Rule overrides: ${failure.message}` : errorText(failure));
    }
  };

  const money = (name: 'labour_rate' | 'paint_rate' | 'paint_material_rate', label: string, hint: string) => (
    <div class="field">
      <label for={`card-${name}`}>{label}</label>
      <input
        id={`card-${name}`}
        name={name}
        type="number"
        min={0}
        step="any"
        required
        defaultValue={String(card[name])}
      />
      <span class="muted small">{hint}</span>
    </div>
  );

  return (
    <form
      key={stored.version}
      class="panel settings-form"
      onSubmit={(e) => void submit(e)}
      aria-labelledby="rate-card-title"
    >
      <h2 id="rate-card-title">Rate card</h2>
      <p class={stored.example ? 'notice' : 'muted small'}>
        {stored.example
          ? 'This client uses the example card: its figures are examples only. Set your own rates and prices before relying on an estimate.'
          : `Version ${stored.version}. Estimates name the version they were priced with.`}
      </p>
      <div class="field">
        <label for="card-currency">Currency (ISO 4217)</label>
        <input
          id="card-currency"
          name="currency"
          required
          pattern="[A-Za-z]{3}"
          defaultValue={card.currency}
        />
      </div>
      {money('labour_rate', 'Labour rate, per hour', 'Body work: removing, repairing, fitting.')}
      {money('paint_rate', 'Paint labour rate, per hour', 'Preparing and painting.')}
      {money(
        'paint_material_rate',
        'Paint material, per paint hour',
        'Added to the paint rate for each paint hour.',
      )}
      <div class="field">
        <label for="card-total-loss">Total loss above (% of the vehicle value)</label>
        <input
          id="card-total-loss"
          name="total_loss_percent"
          type="number"
          min={0}
          max={100}
          step="any"
          required
          defaultValue={String(Math.round(card.total_loss_share * 1000) / 10)}
        />
        <span class="muted small">Compared with inputMetaData.vehicleValue of each inspection.</span>
      </div>
      <div class="field">
        <label for="card-prices">Part prices, one part,price per line</label>
        <textarea
          id="card-prices"
          rows={8}
          value={prices ?? pricesText(card.part_prices)}
          onInput={(e) => setPrices(e.currentTarget.value)}
        />
        <label class="small" for="card-prices-file">
          Or import a CSV file (part,price):
        </label>
        <input
          id="card-prices-file"
          type="file"
          accept=".csv,text/csv"
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            if (file) void file.text().then(setPrices);
          }}
        />
      </div>
      <details>
        <summary>Rule overrides (JSON, optional)</summary>
        <label for="card-rules">Operations tried before the default rules, and hours per operation</label>
        <textarea
          id="card-rules"
          name="rules"
          rows={6}
          defaultValue={card.rules ? JSON.stringify(card.rules, null, 2) : ''}
          placeholder='{"operations": [{"types": ["scratch"], "operation": "smart_repair"}]}'
        />
      </details>
      <ErrorNotice text={error} />
      {notice && (
        <p class="notice done" role="status">
          {notice}
        </p>
      )}
      <div class="actions">
        <button type="submit" class="primary">
          Save the rate card
        </button>
      </div>
    </form>
  );
}
