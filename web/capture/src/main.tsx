// Entry point: the link token is the page's hash, read here and never sent to the server in a URL.
import { render } from 'preact';
import { readToken } from './api.js';
import { App } from './app.js';
import './styles.css';

render(<App token={readToken(location.hash)} />, document.getElementById('app')!);
