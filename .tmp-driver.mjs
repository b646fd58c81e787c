// Interactive playwright driver for playing by hand (not part of the project).
import { chromium } from 'playwright-core';
import http from 'node:http';
const url = process.argv[2];
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--headless'] });
const page = await b.newPage({ viewport: { width: 1440, height: 900 } });
page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
await page.goto(url);
let n = 0;
const shot = async (name) => { const p = `/tmp/i42play/${String(++n).padStart(3, '0')}-${name}.png`; await page.screenshot({ path: p }); return p; };
const tid = (id) => page.getByTestId(id);
http.createServer(async (req, res) => {
  let body = '';
  for await (const c of req) body += c;
  try {
    const fn = new Function('page', 'shot', 'tid', `return (async () => { ${body} })();`);
    const out = await fn(page, shot, tid);
    res.end(JSON.stringify(out ?? null) + '\n');
  } catch (e) { res.end('ERR ' + (e?.message ?? e) + '\n'); }
}).listen(7391, '127.0.0.1', () => console.log('driver ready'));
