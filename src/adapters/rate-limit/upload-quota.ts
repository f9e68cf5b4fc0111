// Upload quotas on rate-limiter-flexible counters (Redis when configured, else the database). The
// allowance differs per client, so there is one counter per allowance size, all in one table.
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { UploadQuota } from '../../ports/upload-quota.js';
import { createCounter, type LimiterStore } from './attempt-limiter.js';

const HOUR_SECONDS = 3600;

export function createUploadQuota(store: LimiterStore): UploadQuota {
  const counters = new Map<number, Promise<RateLimiterAbstract>>();
  const counterFor = (perHour: number) => {
    let counter = counters.get(perHour);
    if (!counter) {
      counter = createCounter(store, {
        name: `upload_quota_${perHour}`,
        table: 'upload_quota',
        points: perHour,
        durationSeconds: HOUR_SECONDS,
      });
      counter.catch(() => counters.delete(perHour));
      counters.set(perHour, counter);
    }
    return counter;
  };
  return {
    async take(clientId, perHour) {
      try {
        await (await counterFor(perHour)).consume(clientId, 1);
        return 0;
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        // A refused upload is no accepted one (docs/api.md#quotas-and-service-windows): the counter
        // counted the attempt, so the point goes back. Until it does, a concurrent take may see the
        // allowance fuller than it is and be refused too: a refusal, never an upload past the allowance.
        await (await counterFor(perHour)).reward(clientId, 1);
        return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      }
    },
    async giveBack(clientId, perHour) {
      await (await counterFor(perHour)).reward(clientId, 1);
    },
  };
}
