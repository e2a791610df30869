// js-yaml 3 is in node_modules through jest (babel-plugin-istanbul) and ships
// no types; only the two safe loaders are used here.
declare module 'js-yaml' {
  export function safeLoad(text: string): unknown;
  export function safeLoadAll(text: string): unknown[];
}
