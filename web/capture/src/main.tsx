// Entry point: the link token is the page's hash, read here and never sent to the server in a URL. A new
// link opened in the same tab changes only the hash: the app starts again for it.
import { render } from 'preact';
import { readToken } from './api.js';
import { App } from './app.js';
import './styles.css';

const root = document.getElementById('app')!;
const mount = () => render(<App key={location.hash} token={readToken(location.hash)} />, root);
addEventListener('hashchange', mount);
mount();
