// The results portal, served by the service at /portal/ beside its API. `npm run dev:portal`: the
// portal with hot reload, its API calls sent on to a running service (WALKAROUND_URL).
import { webAppConfig } from '../vite-app.js';

export default webAppConfig({ name: 'portal', base: '/portal/', api: '/portal/api' });
