/**
 * What a successful delete answers: Zealot's body, its misspelt key included (`mesage`), which
 * its clients may read.
 */
export const DELETED_ANSWER = { mesage: 'OK' };
