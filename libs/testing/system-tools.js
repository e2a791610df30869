// The programs the test suite starts (system-tools.json): which are missing,
// and the one way to get them. Plain CommonJS on purpose: `npm test` runs it
// before anything is built, and jest loads it as it is.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const LIST = path.join(__dirname, 'system-tools.json');

/** @returns {import('./system-tools').SystemTool[]} */
function loadTools(file = LIST) {
  return JSON.parse(fs.readFileSync(file, 'utf8')).tools;
}

const label = (tool) => tool.name ?? tool.command ?? tool.file;

function onPath(command, env) {
  if (command.includes('/')) return isExecutable(command);
  return (env.PATH ?? '').split(path.delimiter).filter(Boolean).some((dir) => isExecutable(path.join(dir, command)));
}

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Whether this machine has the tool, as the tests would look for it. */
function isPresent(tool, env = process.env) {
  if (tool.file) return fs.existsSync(tool.file);
  const command = (tool.env && env[tool.env]) || tool.command;
  if (!onPath(command, env)) return false;
  if (!tool.check) return true;
  return spawnSync(command, tool.check, { stdio: 'ignore', env }).status === 0;
}

/**
 * What to do about the tools a probe finds absent: the required ones missing,
 * the Debian packages that bring every absent tool that has one (optional ones
 * too: Debian's nats-server saves a Go build), and the one message to print
 * when they cannot be installed here.
 */
function plan(tools, present) {
  const absent = tools.filter((t) => !present(t));
  const missing = absent.filter((t) => !t.optional);
  const packages = [...new Set(absent.filter((t) => t.debian).map((t) => t.debian))];
  const requiredPackages = [...new Set(missing.filter((t) => t.debian).map((t) => t.debian))];
  const lines = [];
  if (missing.length) {
    lines.push(`The test suite needs ${missing.length} program(s) this machine lacks: ${missing.map(label).join(', ')}.`);
    if (requiredPackages.length) lines.push('Install them with:', '', `  sudo apt-get install -y --no-install-recommends ${requiredPackages.join(' ')}`, '');
    for (const t of missing.filter((m) => !m.debian)) lines.push(`${label(t)}: ${t.install}`);
    lines.push('(or run `npm test` as root, which installs them with apt-get)');
  }
  return { missing, packages, message: lines.join('\n') };
}

/**
 * Checks every tool; as root with apt-get, installs the missing Debian
 * packages (one `apt-get update`, one install) and checks again. Returns the
 * message to stop with, or undefined when everything is there.
 */
function ensureSystemTools({ env = process.env, log = console.log, tools = loadTools() } = {}) {
  const present = (t) => isPresent(t, env);
  let result = plan(tools, present);
  const canInstall = process.getuid?.() === 0 && onPath('apt-get', env);
  if (result.packages.length && canInstall) {
    log(`Installing Debian packages the tests use: ${result.packages.join(' ')}`);
    const apt = (args) => spawnSync('apt-get', args, { stdio: 'inherit', env: { ...env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (apt(['update', '-qq']).status === 0) apt(['install', '-y', '-qq', '--no-install-recommends', ...result.packages]);
    result = plan(tools, present);
  }
  return result.missing.length ? result.message : undefined;
}

module.exports = { loadTools, isPresent, plan, ensureSystemTools, label };
