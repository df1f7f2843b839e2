// SPDX-License-Identifier: MIT
//
// graphql-standin.js: a local stand-in for GitHub's GraphQL endpoint, for
// flakesweep's tests only. It listens on 127.0.0.1 alone, on a port it
// picks, checks every document it receives against GitHub's published
// schema (@octokit/graphql-schema), answers with replies shaped like
// GitHub's, and stops by itself. The first path segment names a scenario,
// so one server plays every fault: POST /SCENARIO/graphql.
//
//   node graphql-standin.js --port-file FILE --log FILE --test ID
//                           [--token-env NAME] [--lifetime S] [--idle S] [--delay MS]
//                           [--bodies DIR] [--tls-cert PEM --tls-key PEM --tls-port-file FILE]
//
// With --bodies, each created discussion is written to DIR/SCENARIO-NUMBER.md
// as its title, a blank line and its body (the form of `report --dry-run`).
// With --tls-*, the same endpoint also listens with TLS on a second port.
// The log has one line per request:
//   SCENARIO N OPERATION STATUS valid=yes|no auth=ok|missing|wrong ua=ok|bad t=MS [created=N]
//     [commented=N] [reopened=N] [closed=N]
// With --bodies, each comment is written to DIR/SCENARIO-NUMBER-comment-K.md.
// The expected token is read from the environment (--token-env, default
// STANDIN_TOKEN), never from the command line, and is never written anywhere.

import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { appendFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { validate as validateGitHub, schema as githubSchema } from '@octokit/graphql-schema';
import {
  buildClientSchema, execute, getNamedType, parse, TypeInfo, visit, visitWithTypeInfo,
} from 'graphql';

const args = {};
for (let i = 2; i < process.argv.length; i += 2) {
  args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
}
const portFile = args['port-file'];
const logFile = args.log;
const testId = args.test || 'example.com/m/pkg::TestX';
const token = process.env[args['token-env'] || 'STANDIN_TOKEN'] || '';
const lifetimeMs = Number(args.lifetime || 120) * 1000;
const idleMs = Number(args.idle || 30) * 1000;
const delayMs = Number(args.delay || 3000);
const bodiesDir = args.bodies || null;
if (!portFile || !logFile) {
  process.stderr.write('usage: graphql-standin.js --port-file FILE --log FILE --test ID\n');
  process.exit(2);
}

const schema = buildClientSchema(githubSchema.json);
const started = Date.now();
const OWNER = 'demo';
const NAME = 'widgets';
const REPO_ID = 'R_kgDOstandin';

// The marker flakesweep hides in a report: FNV-1a (64 bit) of the test id's
// UTF-8 bytes, as 16 lowercase hex digits.
function markerOf(id) {
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(id, 'utf8')) {
    h ^= BigInt(b);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return `flakesweep:id=${h.toString(16).padStart(16, '0')}`;
}

const sep = testId.indexOf('::');
const testPackage = sep >= 0 ? testId.slice(0, sep) : '';
const testName = sep >= 0 ? testId.slice(sep + 2) : testId;
const marker = markerOf(testId);

function category(id, name, slug) {
  return { id, name, slug, isAnswerable: false, description: '', emoji: ':bug:',
           createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' };
}

function newState(scenario) {
  const s = {
    scenario, n: 0, creates: 0, nextNumber: 40, discussions: [], issues: [],
    hasDiscussionsEnabled: scenario !== 'discussions-disabled',
    categories: [
      category('DIC_kwDOstandin01', 'Announcements', 'announcements'),
      category('DIC_kwDOstandin02', 'General', 'general'),
      category('DIC_kwDOstandin03', 'Q&A', 'q-a'),
    ],
  };
  if (scenario !== 'missing-category') {
    s.categories.push(category('DIC_kwDOstandin04', 'Bugs', 'bugs'));
  }
  const title = `${testPackage}: ${testName} fails intermittently`;
  if (scenario === 'open-discussion' || scenario.startsWith('url-open-')) {
    addDiscussion(s, title, `Seen on CI.\n\n<!-- ${marker} -->\n`, false);
  } else if (scenario === 'closed-discussion') {
    // Closed as outdated, not as fixed: a new report links it.
    addDiscussion(s, title, `Outdated.\n\n<!-- ${marker} -->\n`, true).stateReason = 'OUTDATED';
  } else if (scenario === 'fixed-discussion') {
    addDiscussion(s, title, `Fixed by #3.\n\n<!-- ${marker} -->\n`, true);
  } else if (scenario === 'open-issue') {
    s.issues.push({ number: 12, title: 'Flaky test in CI', closed: false,
                    body: `\`${testName}\` failed again on main.`,
                    url: `https://github.com/${OWNER}/${NAME}/issues/12` });
  } else if (scenario === 'unrelated-open') {
    // Names a longer test that merely starts with this one's name.
    addDiscussion(s, `${testPackage}: ${testName}_more fails intermittently`, 'Other test.', false);
  }
  return s;
}

// The url-* scenarios answer with links a client must neither print nor
// store; url-open-* do so for an open discussion that already names the test.
function discussionUrl(s, number) {
  const path = `${OWNER}/${NAME}/discussions/${number}`;
  const kind = s.scenario.replace(/^url-open-/, 'url-');
  if (kind === 'url-escape') return `https://github.com/${path}\u001b]0;PWNED\u0007\u009b2J`;
  if (kind === 'url-foreign') return `https://github.com.evil.example/${path}`;
  if (kind === 'url-http') return `http://github.com/${path}`;
  return `https://github.com/${path}`;
}

function addDiscussion(s, title, body, closed) {
  const number = s.nextNumber++;
  const d = {
    __typename: 'Discussion', id: `D_kwDOstandin${number}`, number, title, body, closed,
    closedAt: closed ? '2026-02-01T00:00:00Z' : null, stateReason: closed ? 'RESOLVED' : null,
    isAnswered: null, createdAt: new Date(Date.now()).toISOString(),
    url: discussionUrl(s, number),
    category: s.categories[s.categories.length - 1],
    repository: null, comments: [],
  };
  s.discussions.push(d);
  return d;
}

class GitHubError extends Error {
  constructor(type, message) {
    super(message);
    this.ghType = type;
  }
}

function connection(nodes, first) {
  const page = nodes.slice(0, first);
  return {
    nodes: page, totalCount: nodes.length, discussionCount: nodes.length,
    issueCount: nodes.length, edges: page.map((node) => ({ node, cursor: 'Y3Vyc29y' })),
    pageInfo: { hasNextPage: nodes.length > page.length, hasPreviousPage: false,
                startCursor: null, endCursor: page.length ? 'Y3Vyc29yOjE=' : null },
  };
}

function checkFirst(first) {
  if (typeof first !== 'number' || first < 1 || first > 100) {
    throw new GitHubError('INVALID_ARGUMENTS', '`first` must be between 1 and 100.');
  }
}

// Search as GitHub's does it for these qualifiers: repo:, is:issue,
// is:open, is:closed, in:..., one quoted phrase or bare words, matched
// case-insensitively against title and body.
function search(s, query, type) {
  const words = [];
  let repo = null;
  let state = null;
  const re = /"([^"]*)"|(\S+)/g;
  let m;
  while ((m = re.exec(query)) !== null) {
    if (m[1] !== undefined) {
      words.push(m[1].toLowerCase());
    } else if (m[2].startsWith('repo:')) {
      repo = m[2].slice(5);
    } else if (m[2] === 'is:open' || m[2] === 'is:closed') {
      state = m[2].slice(3);
    } else if (m[2].startsWith('is:') || m[2].startsWith('in:')) {
      // Kinds are given by type; in: widens nothing here.
    } else {
      words.push(m[2].toLowerCase());
    }
  }
  if (repo !== `${OWNER}/${NAME}`) {
    return [];
  }
  const pool = type === 'DISCUSSION' ? s.discussions
    : s.issues.map((i) => ({ __typename: 'Issue', id: `I_${i.number}`, state: i.closed ? 'CLOSED' : 'OPEN', ...i }));
  return pool.filter((item) => {
    if (state === 'open' && item.closed) return false;
    if (state === 'closed' && !item.closed) return false;
    const text = `${item.title}\n${item.body}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

function discussionById(s, id) {
  const d = s.discussions.find((x) => x.id === id);
  if (!d) {
    throw new GitHubError('NOT_FOUND', `Could not resolve to a node with the global id of '${id}'`);
  }
  return d;
}

// addDiscussionComment, reopenDiscussion and closeDiscussion as GitHub
// answers them; s.last names what changed, for the log.
function mutations(s) {
  return {
    addDiscussionComment: ({ input }) => {
      const d = discussionById(s, input.discussionId);
      if (input.body.trim() === '') throw new GitHubError('UNPROCESSABLE', "Body can't be blank");
      if ([...input.body].length > 65536) {
        throw new GitHubError('UNPROCESSABLE', 'Body is too long (maximum is 65536 characters)');
      }
      const k = d.comments.length + 1;
      const comment = { __typename: 'DiscussionComment', id: `DC_kwDOstandin${d.number}${k}`,
                        body: input.body, url: `${d.url}#discussioncomment-${d.number * 100 + k}` };
      d.comments.push(comment);
      s.last = ` commented=${d.number}`;
      if (bodiesDir) writeFileSync(`${bodiesDir}/${s.scenario}-${d.number}-comment-${k}.md`, input.body);
      return { clientMutationId: input.clientMutationId ?? null, comment };
    },
    reopenDiscussion: ({ input }) => {
      const d = discussionById(s, input.discussionId);
      if (!d.closed) throw new GitHubError('UNPROCESSABLE', 'Discussion is not closed');
      Object.assign(d, { closed: false, closedAt: null, stateReason: 'REOPENED' });
      s.last = ` reopened=${d.number}`;
      return { clientMutationId: input.clientMutationId ?? null, discussion: d };
    },
    closeDiscussion: ({ input }) => {
      const d = discussionById(s, input.discussionId);
      if (d.closed) throw new GitHubError('UNPROCESSABLE', 'Discussion is already closed');
      Object.assign(d, { closed: true, closedAt: new Date(Date.now()).toISOString(),
                         stateReason: input.reason || 'RESOLVED' });
      s.last = ` closed=${d.number}`;
      return { clientMutationId: input.clientMutationId ?? null, discussion: d };
    },
  };
}

function rootValue(s) {
  const repository = {
    id: REPO_ID, name: NAME, nameWithOwner: `${OWNER}/${NAME}`,
    hasDiscussionsEnabled: s.hasDiscussionsEnabled,
    discussionCategories: ({ first }) => { checkFirst(first); return connection(s.categories, first); },
    discussions: ({ first, states }) => {
      checkFirst(first);
      let list = [...s.discussions].reverse();
      if (states && states.length) {
        list = list.filter((d) => states.includes(d.closed ? 'CLOSED' : 'OPEN'));
      }
      return connection(list, first);
    },
  };
  for (const d of s.discussions) d.repository = repository;
  return {
    repository: ({ owner, name }) => {
      if (owner.toLowerCase() !== OWNER || name.toLowerCase() !== NAME) {
        throw new GitHubError('NOT_FOUND', `Could not resolve to a Repository with the name '${owner}/${name}'.`);
      }
      return repository;
    },
    search: ({ query, type, first }) => {
      checkFirst(first);
      return connection(search(s, query, type), first);
    },
    createDiscussion: ({ input }) => {
      if (s.scenario === 'forbidden') {
        throw new GitHubError('FORBIDDEN', 'Resource not accessible by integration');
      }
      if (input.repositoryId !== REPO_ID) {
        throw new GitHubError('NOT_FOUND', `Could not resolve to a node with the global id of '${input.repositoryId}'`);
      }
      const cat = s.categories.find((c) => c.id === input.categoryId);
      if (!cat) {
        throw new GitHubError('NOT_FOUND', `Could not resolve to a node with the global id of '${input.categoryId}'`);
      }
      if ([...input.body].length > 65536) {
        throw new GitHubError('UNPROCESSABLE', 'Body is too long (maximum is 65536 characters)');
      }
      if (input.title.trim() === '') {
        throw new GitHubError('UNPROCESSABLE', "Title can't be blank");
      }
      const d = addDiscussion(s, input.title, input.body, false);
      d.category = cat;
      d.repository = repository;
      s.creates++;
      s.lastCreated = d.number;
      if (bodiesDir) {
        writeFileSync(`${bodiesDir}/${s.scenario}-${d.number}.md`, `${input.title}\n\n${input.body}`);
      }
      return { clientMutationId: input.clientMutationId ?? null, discussion: d };
    },
    ...mutations(s),
  };
}

// GitHub rejects connections without first or last (1..100) even though
// the schema allows them; static validation does not see that, so check.
function connectionErrors(document, variables) {
  const errors = [];
  const typeInfo = new TypeInfo(schema);
  visit(document, visitWithTypeInfo(typeInfo, {
    Field(node) {
      const type = typeInfo.getType();
      if (!type || !getNamedType(type).name.endsWith('Connection')) return;
      const arg = (node.arguments || []).find((a) => a.name.value === 'first' || a.name.value === 'last');
      if (!arg) {
        errors.push(`You must provide a \`first\` or \`last\` value to properly paginate the \`${node.name.value}\` connection.`);
        return;
      }
      const v = arg.value.kind === 'Variable' ? variables[arg.value.name.value] : Number(arg.value.value);
      if (typeof v !== 'number' || v < 1 || v > 100) {
        errors.push(`\`${arg.name.value}\` on \`${node.name.value}\` must be between 1 and 100.`);
      }
    },
  }));
  return errors;
}

function formatErrors(errors) {
  return errors.map((e) => {
    const out = {};
    const orig = e.originalError;
    if (orig && orig.ghType) out.type = orig.ghType;
    if (e.path) out.path = e.path;
    if (e.locations) out.locations = e.locations;
    out.message = e.message;
    return out;
  });
}

const states = new Map();
function stateFor(scenario) {
  if (!states.has(scenario)) states.set(scenario, newState(scenario));
  return states.get(scenario);
}

function log(line) {
  appendFileSync(logFile, `${line}\n`);
}

function send(res, status, body, headers = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': typeof body === 'string' ? 'text/html' : 'application/json; charset=utf-8',
    'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '4990', 'x-ratelimit-used': '10',
    'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
    'x-ratelimit-resource': 'graphql', ...headers,
  });
  res.end(text);
}

let idleTimer = null;
function touch() {
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => process.exit(0), idleMs);
}

function handle(req, res, raw) {
  touch();
  const m = /^\/([a-z0-9-]+)\/graphql$/.exec(req.url || '');
  if (req.method !== 'POST' || !m) {
    send(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/graphql' });
    return;
  }
  const s = stateFor(m[1]);
  const n = ++s.n;
  const auth = req.headers.authorization;
  const authState = !auth ? 'missing'
    : /^(bearer|token) (.*)$/i.test(auth) && auth.replace(/^\S+ /, '') === token && token !== '' ? 'ok' : 'wrong';
  const ua = /^flakesweep\/\d+\.\d+/.test(req.headers['user-agent'] || '') ? 'ok' : 'bad';
  const t = Date.now() - started;
  let body;
  let op = '-';
  let document;
  let problems = [];
  try {
    if (!/^application\/json/.test(req.headers['content-type'] || '')) throw new Error('content-type is not JSON');
    body = JSON.parse(raw);
    if (typeof body.query !== 'string') throw new Error('no query');
    document = parse(body.query);
    const opDef = document.definitions.find((d) => d.kind === 'OperationDefinition');
    op = opDef && opDef.name ? opDef.name.value : '(anonymous)';
    problems = validateGitHub(body.query).map((e) => e.message);
    problems.push(...connectionErrors(document, body.variables || {}));
  } catch (e) {
    problems = [String(e.message || e)];
  }
  const record = (status, extra = '') => {
    log(`${s.scenario} ${n} ${op} ${status} valid=${problems.length ? 'no' : 'yes'} auth=${authState} ua=${ua} t=${t}${extra}`);
    for (const p of problems) log(`${s.scenario} ${n} INVALID ${p}`);
  };
  if (problems.length) {
    record(200);
    send(res, 200, { errors: problems.map((message) => ({ message, extensions: { code: 'invalidDocument' } })) });
    return;
  }
  const sc = s.scenario;
  const isCreate = op === 'CreateDiscussion';
  if (authState !== 'ok' || sc === 'bad-credentials') {
    record(401);
    send(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/graphql', status: '401' });
    return;
  }
  if (sc === 'hostile-echo') {
    // A server that repeats the credentials it was sent: the client must
    // never show them.
    record(401);
    send(res, 401, { message: `Bad credentials: ${auth}`, documentation_url: 'https://docs.github.com/graphql' });
    return;
  }
  if (sc === 'insufficient-scopes') {
    record(200);
    send(res, 200, { errors: [{ type: 'INSUFFICIENT_SCOPES', locations: [{ line: 2, column: 3 }],
      message: "Your token has not been granted the required scopes to execute this query. The 'id' field requires one of the following scopes: ['read:discussion'], but your token has only been granted the: [''] scopes. Please modify your token's scopes at: https://github.com/settings/tokens." }] });
    return;
  }
  if (sc === 'rate-limited') {
    record(200);
    send(res, 200, { errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded for user ID 1234567.' }] },
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-used': '5000', 'x-ratelimit-reset': '4102444800' });
    return;
  }
  if ((sc === 'secondary-rate-limit' && isCreate && s.creates === 0 && !s.limited)
      || (sc === 'secondary-rate-limit-long' && isCreate)) {
    s.limited = true;
    record(403);
    send(res, 403, { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
      documentation_url: 'https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits' },
      { 'retry-after': sc === 'secondary-rate-limit' ? '1' : '7200' });
    return;
  }
  if (sc === 'too-many-requests' && n === 1) {
    record(429);
    send(res, 429, { message: 'Too many requests' }, { 'retry-after': '1' });
    return;
  }
  if ((sc === 'bad-gateway-once' && n === 1) || sc === 'bad-gateway') {
    record(502);
    send(res, 502, "<html><body><h1>502 Bad Gateway</h1>We couldn't respond to your request in time.</body></html>");
    return;
  }
  const delayed = (sc === 'slow-once' && n === 1) || sc === 'slow' || (sc === 'slow-create' && isCreate && s.creates === 0);
  s.last = '';
  const result = execute({ schema, document, rootValue: rootValue(s), variableValues: body.variables || {} });
  if (result.errors && result.data === undefined) {
    // Variables that do not fit the document: as invalid as a bad field.
    problems = result.errors.map((e) => e.message);
    record(200);
    send(res, 200, { errors: problems.map((message) => ({ message, extensions: { code: 'variableMismatch' } })) });
    return;
  }
  const reply = { data: result.data };
  if (result.errors) reply.errors = formatErrors(result.errors);
  const created = (isCreate && result.data && result.data.createDiscussion ? ` created=${s.lastCreated}` : '')
    + s.last;
  if (sc === 'lost-reply' && isCreate && s.creates === 1 && !s.lost) {
    // The discussion exists now, but its reply never arrives.
    s.lost = true;
    record('lost', created);
    req.socket.destroy();
    return;
  }
  if (delayed) {
    record('slow', created);
    setTimeout(() => { if (!res.destroyed) send(res, 200, reply); }, delayMs);
    return;
  }
  record(200, created);
  send(res, 200, reply);
}

function onRequest(req, res) {
  const chunks = [];
  let size = 0;
  req.on('data', (c) => {
    size += c.length;
    if (size > 8 << 20) {
      req.destroy();
      return;
    }
    chunks.push(c);
  });
  req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
}

function listen(server, file) {
  server.keepAliveTimeout = 2000;
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    writeFileSync(`${file}.tmp`, `${port}\n`);
    renameSync(`${file}.tmp`, file);
    touch();
  });
}

if (args['tls-cert'] && args['tls-key'] && args['tls-port-file']) {
  listen(createTlsServer({ cert: readFileSync(args['tls-cert']), key: readFileSync(args['tls-key']) },
    onRequest), args['tls-port-file']);
}
listen(createServer(onRequest), portFile);
setTimeout(() => process.exit(0), lifetimeMs).unref();
process.on('SIGTERM', () => process.exit(0));
