// The capture app, served by the service at /app/ beside the capture API. `npm run dev:capture`: the
// app with hot reload, its API calls sent on to a running service (WALKAROUND_URL).
import { webAppConfig } from '../vite-app.js';

export default webAppConfig({ name: 'capture', base: '/app/', api: '/app/api' });
