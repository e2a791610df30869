/** One program the test suite starts; see system-tools.json. */
export interface SystemTool {
  /** Looked up on PATH (or this path when it has a slash). */
  command?: string;
  /** A file that must exist instead of a program. */
  file?: string;
  /** Arguments of a run that must succeed (e.g. a Python module import). */
  check?: string[];
  /** How it is named in messages when `command` is not enough. */
  name?: string;
  /** An environment variable that points the tests at another binary. */
  env?: string;
  /** The Debian package that provides it. */
  debian?: string;
  /** How to get it when no Debian package does. */
  install?: string;
  /** Present: the code has a way round it (the text says which); never required. */
  optional?: string;
  usedBy: string;
}

export interface Plan {
  missing: SystemTool[];
  packages: string[];
  message: string;
}

export function loadTools(file?: string): SystemTool[];
export function isPresent(tool: SystemTool, env?: NodeJS.ProcessEnv): boolean;
export function plan(tools: SystemTool[], present: (tool: SystemTool) => boolean): Plan;
export function ensureSystemTools(options?: { env?: NodeJS.ProcessEnv; log?: (line: string) => void; tools?: SystemTool[] }): string | undefined;
export function label(tool: SystemTool): string;
