// Browser test of the KG Scout UI, run by tests/test_e2e_browser.py (plain Node + playwright-core,
// headless Debian Chromium; no Playwright test runner, no downloaded browsers).
//
//   node scout.spec.js URL ARTIFACTS_DIR [--docs DOCS_DIR] [--budget N] [--model NAME]
//
// Steps (each logs one line; any failed expectation exits 1 after a screenshot of every page):
//   1. two browser sessions ask different questions of the default geography KG at the same time;
//      each gets its own right answer, and the details panel shows the program and the SPARQL;
//   2. the program is edited and run again, and the answers offered as CSV;
//   3. a bad upload (an empty file) gets a clear message and the default KG stays selected; an endpoint URL on
//      the machine itself is refused, with why and how to allow it;
//   4. a small Turtle file is uploaded, its schema shown, and a bootstrap started whose bar tells what it does;
//   5. within 2 minutes of the upload, while the bootstrap is still writing questions, a question about the
//      uploaded KG gets the right answer, and the details say how large the corpus was;
//   6. the bootstrap is cancelled (the bar says "Cancelled", no ETA) and resumed (it counts from the questions
//      already written), then cancelled again; after a page reload the uploaded KG is still listed for this
//      browser and not for the other; the corpus browser finds the questions written so far and runs one.
// Along the way: each reply leads with a sentence and carries a picture of its path (the linked entity and the
// relation); an opened details panel is scrolled into view; "Mark as correct" asks first, shows the pair, and
// can be undone; the CSV of an edited program is named after that program.
'use strict';

const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const args = process.argv.slice(2);
const URL_ = args[0];
const ART = args[1] || 'test-artifacts';
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const DOCS = opt('--docs', null);
const BUDGET = opt('--budget', '200'); // more than the tiny KG can be walked in 2 minutes: it is still running
const ANSWER_WITHIN_S = 120; // after the upload
const MODEL = opt('--model', 'smollm2-135m');
const HERE = __dirname;
const ASK_TIMEOUT = 240e3;

fs.mkdirSync(ART, { recursive: true });
const started = Date.now();
const log = (msg) => console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${msg}`);

function expect(cond, msg) { if (!cond) throw new Error('expectation failed: ' + msg); }

async function shot(page, name, opts = {}) {
  const file = path.join(ART, name);
  await page.screenshot({ path: file, ...opts });
  return file;
}

async function newSession(browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 }, acceptDownloads: true });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.log('PAGE ERROR', err.message));
  await page.goto(URL_, { waitUntil: 'domcontentloaded' });
  await page.waitForSelector('#question textarea', { timeout: 120e3 });
  // the session's state arrives with the load event: wait for the greeting (Gradio may not have drawn #chat yet
  // when the textarea is there: a missing element reads as "not yet", not as an error)
  await page.waitForFunction(() => (document.querySelector('#chat')?.innerText ?? '').includes('Ask me about'), null,
    { timeout: 60e3 });
  return page;
}

const chatText = (page) => page.$eval('#chat', (e) => e.innerText);
const botMessages = (page) => page.$$eval('#chat [data-testid="bot"]', (els) => els.map((e) => e.innerText));

async function ask(page, question) {
  const before = (await botMessages(page)).length;
  await page.fill('#question textarea', question);
  await page.click('#ask');
  // wait for a reply that is no longer the pending "Thinking…" message
  await page.waitForFunction((n) => {
    const bots = [...document.querySelectorAll('#chat [data-testid="bot"]')];
    if (bots.length <= n) return false;
    return !document.querySelector('#chat').innerText.includes('Thinking…');
  }, before, { timeout: ASK_TIMEOUT, polling: 500 });
  const bots = await botMessages(page);
  return bots.slice(before).join('\n');
}

async function openLastDetails(page) {
  const titles = page.locator('#chat .thought-group .title');
  await titles.last().click();
  await page.waitForFunction(() => {
    const groups = document.querySelectorAll('#chat .thought-group');
    const last = groups[groups.length - 1];
    return last && last.innerText.includes('SPARQL') && last.innerText.includes('SELECT');
  }, null, { timeout: 10e3 });
  // opening it scrolls it into view: its top is inside the chat's visible area
  await page.waitForFunction(() => {
    const groups = document.querySelectorAll('#chat .thought-group');
    const top = groups[groups.length - 1].getBoundingClientRect().top;
    const box = document.querySelector('#chat').getBoundingClientRect();
    return top >= box.top - 2 && top < Math.min(box.bottom, window.innerHeight) - 40;
  }, null, { timeout: 5e3 }).catch(() => { throw new Error('expectation failed: the opened details were not scrolled into view'); });
  return page.$$eval('#chat .thought-group', (els) => els[els.length - 1].innerText);
}

// The last reply's lead sentence and its path picture (the SVG inside the image's data: URI, and its alt text).
async function lastReply(page) {
  return page.evaluate(() => {
    const bots = [...document.querySelectorAll('#chat [data-testid="bot"]')].filter((b) => b.querySelector('.kgs-lead'));
    const last = bots[bots.length - 1];
    if (!last) return { lead: '', alt: '', svg: '' };
    const img = last.querySelector('img.kgs-walk');
    const src = img ? img.getAttribute('src') : '';
    const svg = src.startsWith('data:image/svg+xml;base64,') ? atob(src.split(',')[1]) : '';
    return { lead: last.querySelector('.kgs-lead').innerText, alt: img ? img.alt : '', svg,
      shown: img ? img.naturalWidth > 0 : false };
  });
}

// The KG dropdown's choices; `pick`: the one to select (else the list is closed again).
async function dropdownChoices(page, pick) {
  await page.click('#kg-select input');
  await page.waitForSelector('li.item', { timeout: 5e3 });
  const choices = (await page.locator('li.item').allInnerTexts()).map((c) => c.replace('✓', '').trim());
  if (pick && choices.includes(pick)) await page.locator('li.item', { hasText: pick }).click();
  else await page.keyboard.press('Escape');
  return choices;
}

// The bootstrap's final status line, once it has one.
const finishedText = () => /Bootstrap of .* complete|Bootstrap failed|Stopped with|Cancelled with/.test(
  document.querySelector('#bootstrap-status').innerText);

async function gotoTab(page, name) {
  await page.getByRole('tab', { name }).click();
  await page.waitForTimeout(300);
}

(async () => {
  // launch() gives the browser a fresh, temporary profile (its own --user-data-dir), removed on close.
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const pages = [];
  try {
    // ------------------------------------------------------------ 1. two sessions at once
    const a = await newSession(browser);
    const b = await newSession(browser);
    pages.push(a, b);
    log('two sessions loaded');
    const [ra, rb] = await Promise.all([
      ask(a, 'what is the capital of France?'),
      ask(b, 'what is the capital of Japan?'),
    ]);
    log(`session A: ${JSON.stringify(ra.split('\n')[0])}; session B: ${JSON.stringify(rb.split('\n')[0])}`);
    expect(ra.includes('Paris'), `session A's answer has Paris: ${ra}`);
    expect(!ra.includes('Tokyo'), 'session A never sees Tokyo');
    expect(rb.includes('Tokyo'), `session B's answer has Tokyo: ${rb}`);
    expect(!(await chatText(b)).includes('Paris'), "session B never sees session A's answer");
    const reply = await lastReply(a);
    log(`lead: ${JSON.stringify(reply.lead)}; picture: ${JSON.stringify(reply.alt)}`);
    expect(/capital of .*France is Paris\./.test(reply.lead), `the reply leads with a sentence: ${reply.lead}`);
    expect(reply.shown && reply.svg.includes('France') && reply.svg.includes('capital') && reply.svg.includes('Paris'),
      `the picture shows the linked entity, the relation and the answer: ${reply.alt}`);
    const details = await openLastDetails(a);
    expect(details.includes('(JOIN (R capital) "France")'), `the program is shown: ${details}`);
    expect(/SELECT[\s\S]*WHERE/.test(details), 'the SPARQL is shown');
    expect(details.includes('Top alternatives') || details.includes('Linked'), 'linked entities / alternatives');
    await a.waitForTimeout(300);
    await shot(a, 'chat.png');
    if (DOCS) {
      await a.locator('#chat').scrollIntoViewIfNeeded();
      await a.screenshot({ path: path.join(DOCS, 'chat.png'), fullPage: true, clip: await docClip(a, '#chat', '#program-panel') });
    }
    log('answers and details checked');

    // ------------------------------------------------------------ 1b. a follow-up in the same session
    const follow = await ask(b, 'which country is it the capital of?');
    log(`follow-up: ${JSON.stringify(follow.split('\n').slice(0, 2))}`);
    expect(follow.includes('Read as: which country is [Tokyo] the capital of?'), `the follow-up is read with Tokyo: ${follow}`);
    expect(follow.includes('Japan'), `the follow-up is answered: ${follow}`);

    // ------------------------------------------------------------ 2. edit and run the program, CSV
    await a.fill('#program textarea', '(JOIN (R capital) "Germany")');
    await a.click('#run-program');
    await a.waitForFunction(() => document.querySelector('#chat').innerText.includes('Berlin'), null,
      { timeout: 60e3 });
    const download = a.waitForEvent('download', { timeout: 30e3 });
    await a.click('#download-csv');
    const got = await download;
    const csv = fs.readFileSync(await got.path(), 'utf8');
    expect(csv.startsWith('label,iri') && csv.includes('Berlin'), `the CSV has the answers: ${csv}`);
    const csvName = got.suggestedFilename();
    expect(csvName.includes('Germany') && !csvName.includes('France'), `the CSV is named after its program: ${csvName}`);
    log(`edited program ran; CSV downloaded as ${csvName}`);

    // ------------------------------------------------------------ 2b. mark as correct: asked first, then undone
    await a.click('#mark-correct');
    await a.waitForSelector('#mark-confirm', { state: 'visible', timeout: 10e3 });
    const pair = await a.$eval('#mark-pair', (e) => e.innerText);
    expect(pair.includes('(JOIN (R capital) "Germany")') && /not the one that answered/.test(pair),
      `the pair is shown, with a note that the program was edited: ${pair}`);
    expect((await a.$eval('#mark-question textarea', (e) => e.value)) === 'what is the capital of France?',
      'the question box holds the last question');
    await a.fill('#mark-question textarea', 'what is the capital of Germany?');
    if (DOCS) await a.locator('#program-panel').screenshot({ path: path.join(DOCS, 'mark-correct.png') });
    await a.click('#mark-add');
    await a.waitForFunction(() => document.querySelector('#chat-status').innerText.includes('Added to the corpus'),
      null, { timeout: 30e3 });
    expect(await a.isVisible('#mark-undo'), 'an Undo button is offered');
    await a.click('#mark-undo');
    await a.waitForFunction(() => document.querySelector('#chat-status').innerText.startsWith('Undone'), null,
      { timeout: 30e3 });
    expect(!(await a.isVisible('#mark-undo')), 'the Undo button goes once used');
    log('mark as correct: confirmed, added, undone');

    // ------------------------------------------------------------ 3. a bad upload keeps the KG
    await gotoTab(a, 'Bring your own KG');
    const empty = path.join(ART, 'empty.ttl');
    fs.writeFileSync(empty, '');
    await a.setInputFiles('#kg-upload input[type=file]', empty);
    await a.waitForFunction(() => /Could not load/.test(document.querySelector('#kg-status').innerText), null,
      { timeout: 60e3 });
    const status = await a.$eval('#kg-status', (e) => e.innerText);
    expect(status.includes('no triples'), `the message says why: ${status}`);
    expect(!/Traceback|File "/.test(await a.$eval('body', (e) => e.innerText)), 'no stack trace on the page');
    const kgNow = await a.$eval('#kg-select input', (e) => e.value);
    expect(kgNow.includes('geography'), `the previous KG stays selected: ${kgNow}`);
    await shot(a, 'bad-upload.png', { fullPage: true });
    log('empty upload refused with a message');
    await a.fill('#endpoint textarea, #endpoint input', 'http://127.0.0.1:8890/sparql');
    await a.click('#connect');
    await a.waitForFunction(() => /refused to connect/.test(document.querySelector('#kg-status').innerText), null,
      { timeout: 60e3 });
    const refusal = await a.$eval('#kg-status', (e) => e.innerText);
    expect(/loopback/.test(refusal) && refusal.includes('--allow-private-endpoints'), `why and how to allow: ${refusal}`);
    expect((await a.$eval('#kg-select input', (e) => e.value)).includes('geography'), 'the KG stays as it was');
    await shot(a, 'endpoint-refused.png', { fullPage: true });
    log('loopback endpoint refused: ' + refusal.replace(/\n/g, ' '));

    // ------------------------------------------------------------ 4. upload and bootstrap a Turtle KG
    await a.locator('#kg-upload button[aria-label="Clear"]').click().catch(() => {});
    await a.setInputFiles('#kg-upload input[type=file]', path.join(HERE, 'solar_system.ttl'));
    const uploaded = Date.now();
    await a.waitForFunction(() => document.querySelector('#kg-status').innerText.includes('Loaded'), null,
      { timeout: 120e3 });
    expect((await a.$eval('#relations', (e) => e.innerText)).includes('moonOf'), 'the schema lists moonOf');
    expect((await a.$eval('#classes', (e) => e.innerText)).includes('A natural satellite'), 'class descriptions');
    log('Turtle KG loaded; schema shown');
    await a.fill('#budget input', String(BUDGET));
    const model = a.locator('#model input');
    await model.click();
    await model.fill(MODEL);
    await model.press('Enter');
    await a.click('#bootstrap-start');
    // each stage says what it is; programs done, the rate and an ETA once the first batch is written
    const stageSeen = () => /Exploring|Loading the language model|Writing questions|Checking the written/.test(
      document.querySelector('#bootstrap-progress').innerText);
    await a.waitForFunction(stageSeen, null, { timeout: 60e3, polling: 250 });
    const midRun = () => {
      const t = document.querySelector('#bootstrap-progress').innerText;
      return /Writing questions|Checking the written/.test(t) && /[1-9]\d* \/ \d+ programs/.test(t) && /ETA \d/.test(t);
    };
    await a.waitForFunction(midRun, null, { timeout: 180e3, polling: 250 });
    await shot(a, 'bootstrap-progress.png', { fullPage: true });
    if (DOCS) {
      await a.screenshot({ path: path.join(DOCS, 'bootstrap.png'), fullPage: true,
        clip: await docClip(a, '#schema-summary', '#bootstrap-status') });
    }
    log('bootstrap running: ' + (await a.$eval('#bootstrap-progress', (e) => e.innerText)).replace(/\n/g, ' | '));

    // ------------------------------------------------------------ 5. ask while the corpus grows
    await gotoTab(a, 'Chat');
    const note = await a.$eval('#kg-note', (e) => e.innerText);
    expect(note.includes('solar_system.ttl'), `the chat asks the uploaded KG: ${note}`);
    const rs = await ask(a, 'which planet is Phobos a moon of?');
    const answeredAfter = (Date.now() - uploaded) / 1000;
    log(`solar system, ${answeredAfter.toFixed(0)} s after the upload: ${JSON.stringify(rs.split('\n')[0])}`);
    expect(rs.includes('Mars'), `the answer is Mars: ${rs}`);
    expect(answeredAfter <= ANSWER_WITHIN_S, `answered within ${ANSWER_WITHIN_S} s of the upload: ${answeredAfter} s`);
    const stillRunning = !(await a.evaluate(finishedText));
    expect(stillRunning, 'the bootstrap was still running when the answer came');
    const solarDetails = await openLastDetails(a);
    expect(solarDetails.includes('moonOf'), 'the program uses moonOf');
    expect(/Corpus\s+a corpus of \d+ questions? and \d+ program readings?|Corpus\s+a corpus of \d+ questions/.test(solarDetails),
      `the details say how large the corpus was: ${solarDetails}`);
    log('details: ' + solarDetails.split('\n').filter((l) => /corpus/i.test(l)).join(' | '));
    await shot(a, 'solar-answer.png');

    // the bootstrap is cancelled here: the corpus keeps what was written
    await gotoTab(a, 'Bring your own KG');
    await a.click('#bootstrap-cancel');
    await a.waitForFunction(() => /Cancell/.test(document.querySelector('#bootstrap-progress').innerText), null,
      { timeout: 10e3 });
    await a.waitForFunction(finishedText, null, { timeout: 120e3, polling: 500 });
    const bootStatus = await a.$eval('#bootstrap-status', (e) => e.innerText);
    expect(/Cancelled with [1-9]/.test(bootStatus), `the cancelled bootstrap keeps its questions: ${bootStatus}`);
    const cancelledBar = await a.$eval('#bootstrap-progress', (e) => e.innerText);
    expect(/Cancelled/.test(cancelledBar) && !/ETA/.test(cancelledBar), `the bar says cancelled, no ETA: ${cancelledBar}`);
    const written = Number(/Cancelled with (\d+)/.exec(bootStatus)[1]);
    await shot(a, 'bootstrap-stopped.png', { fullPage: true });
    log('bootstrap cancelled: ' + bootStatus);

    // resume: it counts from the questions already written, then cancel it again
    await a.click('#bootstrap-start');
    await a.waitForFunction(() => /Bootstrapping/.test(document.querySelector('#bootstrap-status').innerText), null,
      { timeout: 30e3 });
    await a.waitForFunction(() => /\d+ \/ \d+ programs/.test(document.querySelector('#bootstrap-progress').innerText),
      null, { timeout: 60e3, polling: 250 });
    const resumedBar = await a.$eval('#bootstrap-progress', (e) => e.innerText);
    const counted = Number(/(\d+) \/ \d+ programs/.exec(resumedBar)[1]);
    expect(counted >= written, `the resumed bar counts from the ${written} questions written: ${resumedBar}`);
    log('resumed: ' + resumedBar.replace(/\n/g, ' | '));
    await a.click('#bootstrap-cancel');
    await a.waitForFunction(finishedText, null, { timeout: 120e3, polling: 500 });

    // ------------------------------------------------------------ 5b. a reload keeps this browser's KGs
    await a.reload({ waitUntil: 'domcontentloaded' });
    await a.waitForFunction(() => document.querySelector('#chat') && document.querySelector('#chat').innerText.includes('Ask me about'),
      null, { timeout: 60e3 });
    const theirs = await dropdownChoices(b);
    expect(!theirs.includes('solar_system.ttl'), `another browser does not see it: ${theirs}`);
    const mine = await dropdownChoices(a, 'solar_system.ttl');
    expect(mine.includes('solar_system.ttl'), `the uploaded KG is listed after a reload: ${mine}`);
    await a.waitForFunction(() => document.querySelector('#kg-note').innerText.includes('solar_system.ttl'), null,
      { timeout: 30e3 });
    log(`after a reload this browser lists ${JSON.stringify(mine)}; the other ${JSON.stringify(theirs)}`);

    // ------------------------------------------------------------ 6. corpus browser
    await gotoTab(a, 'Corpus');
    await a.click('#corpus-search-btn');
    await a.waitForFunction(() => /\d+ match/.test(document.querySelector('#corpus-status').innerText), null,
      { timeout: 30e3 });
    await a.locator('#corpus-table [role="gridcell"]').filter({ hasText: /^\s*\(/ }).first().click();
    await a.waitForFunction(() => document.querySelector('#corpus-program textarea').value.includes('('), null,
      { timeout: 10e3 });
    await a.click('#corpus-run');
    await a.waitForFunction(() => {
      const t = document.querySelector('#corpus-answer').innerText.trim();
      return t.length > 0 && !t.includes('Select a row');
    }, null, { timeout: 30e3 });
    expect(!(await a.$eval('#corpus-answer', (e) => e.innerText)).includes('Error'), 'the corpus program runs');
    await shot(a, 'corpus.png', { fullPage: true });
    log('corpus browser ran a program');
    log('ALL OK');
  } catch (err) {
    console.error(err && err.stack || err);
    for (const [i, p] of pages.entries()) {
      await p.screenshot({ path: path.join(ART, `failure-${i}.png`), fullPage: true }).catch(() => {});
    }
    process.exitCode = 1;
  } finally {
    await browser.close();
  }
})();

// The bounding box from the top of one element to the bottom of another, for README screenshots.
async function docClip(page, topSel, bottomSel) {
  const scrollY = await page.evaluate(() => window.scrollY);
  const top = await page.locator(topSel).boundingBox();
  const bottom = await page.locator(bottomSel).boundingBox();
  top.y += scrollY;
  bottom.y += scrollY;
  const y = Math.max(0, top.y - 12);
  return { x: 0, y, width: page.viewportSize().width, height: bottom.y + bottom.height + 12 - y };
}
