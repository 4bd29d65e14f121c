/** The steplens web view: auth first (a token when the server wants one), then the pages. */
import 'uplot/dist/uPlot.min.css';
import './style.css';
import { whenUnauthorized } from './api.js';
import { authMode, forgetToken, setToken, token, type AuthMode } from './auth.js';
import { h } from './dom.js';
import { calibrationPage } from './pages/calibration.js';
import { scorePage } from './pages/score.js';
import { sessionPage } from './pages/session.js';
import { sessionsPage } from './pages/sessions.js';
import { taskPage } from './pages/task.js';
import { render, route, startRouter, stopPage } from './router.js';

const main = document.getElementById('main')!;
const status = document.getElementById('auth-status')!;
let mode: AuthMode = 'open';
let started = false;

function showStatus(): void {
  if (mode === 'open') {
    status.replaceChildren(h('span', { class: 'badge open', title: 'No bearer tokens are configured: anyone who can reach this server may use it.' }, 'Open server: no token needed'));
    return;
  }
  status.replaceChildren(
    h('span', { class: 'badge' }, 'Token set for this tab'),
    ' ',
    h(
      'button',
      {
        type: 'button',
        class: 'link',
        onclick: () => {
          forgetToken();
          askToken();
        },
      },
      'Forget token',
    ),
  );
}

/** The token form; the page behind it starts once a token is given (the next 401 brings it back). */
function askToken(problem?: string): void {
  stopPage();
  status.replaceChildren(h('span', { class: 'badge' }, 'Token required'));
  const input = h('input', { id: 'token', name: 'token', type: 'password', autocomplete: 'off', required: true, 'aria-describedby': 'token-help' });
  const form = h(
    'form',
    { class: 'card token-form', 'aria-labelledby': 'token-title' },
    h('h1', { id: 'token-title' }, 'Sign in'),
    h(
      'p',
      { id: 'token-help' },
      'This server needs a bearer token (one of those given to steplens serve with --token, --token-file or STEPLENS_TOKENS). It is kept in this browser tab only and sent in the Authorization header.',
    ),
    problem ? h('p', { class: 'error', role: 'alert' }, problem) : null,
    h('label', { for: 'token' }, 'Bearer token'),
    input,
    h('button', { type: 'submit' }, 'Use token'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    setToken(input.value.trim());
    showStatus();
    if (started) render();
    else start();
  });
  main.replaceChildren(form);
  input.focus();
}

function start(): void {
  started = true;
  startRouter(main);
}

async function boot(): Promise<void> {
  route('/', 'sessions', sessionsPage);
  route('/index.html', 'sessions', sessionsPage);
  route('/session/:id', 'sessions', sessionPage);
  route('/task/:task', 'sessions', taskPage);
  route('/score', 'score', scorePage);
  route('/calibration', 'calibration', calibrationPage);
  try {
    mode = await authMode();
  } catch (error) {
    main.replaceChildren(h('p', { class: 'error', role: 'alert' }, `Cannot reach the server: ${error instanceof Error ? error.message : String(error)}`));
    return;
  }
  whenUnauthorized(() => {
    forgetToken();
    askToken('The server refused the token (missing or wrong). Enter a valid one.');
  });
  if (mode === 'token' && token() === undefined) {
    askToken();
    return;
  }
  showStatus();
  start();
}

void boot();
