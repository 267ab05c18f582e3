import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { readTokens } from './api/session.js';
import { App, queryClient } from './app.js';
import { meQuery } from './auth/auth.js';
import { preloadPage } from './routes.js';
import { myMenusQuery } from './shell/menus.js';
import 'antd/dist/antd.css';
import './styles.css';

/**
 * Waited for before the first render, at most START_WAIT_MS: the user, the menu and the page's code.
 * Their calls were started by index.html (api/boot-fetch.ts) and have usually answered by now, so the
 * first render draws the whole page instead of a spinner that a second pass over the layout replaces.
 */
const START_WAIT_MS = 400;

function startUp(): Promise<unknown> {
  const page = preloadPage(location.pathname);
  if (!readTokens()) return page;
  return Promise.allSettled([page, queryClient.prefetchQuery(meQuery), queryClient.prefetchQuery(myMenusQuery)]);
}

const root = createRoot(document.getElementById('root')!);
// A transition renders in slices that give the browser its turn between them (the whole page is one render
// now, which as one task kept input and the calls' answers waiting, and counted as blocking time).
void Promise.race([startUp(), new Promise((resolve) => setTimeout(resolve, START_WAIT_MS))]).then(() =>
  startTransition(() => root.render(<App />)),
);
