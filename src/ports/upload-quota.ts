/**
 * Per-client limit on accepted uploads per hour (docs/api.md#quotas-and-service-windows), shared by
 * every api process.
 */
export interface UploadQuota {
  /** Takes one upload from the client's hourly allowance; returns 0, or the seconds until one is free. */
  take(clientId: string, perHour: number): Promise<number>;
  /** Returns an upload that was taken but not accepted (the request was rejected). */
  giveBack(clientId: string, perHour: number): Promise<void>;
}
