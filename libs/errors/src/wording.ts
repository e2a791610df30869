/**
 * `word` with its indefinite article, for messages that name a platform or a type: "an iOS build",
 * "an Android build", "a macOS build", "an array". Chosen by the first letter, which is right for
 * the words messages put here (platform names, JSON types); a word said with a different first
 * sound ("a user", "an hour") would need its own entry.
 */
export function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}
