/**
 * The exit code of a process that refuses to start because of what it was given — a
 * database that does not belong to its bucket, a setting that cannot work — rather than
 * because something failed on the way (sysexits' EX_CONFIG). Starting it again changes
 * nothing, so the launcher (`npm run up`) does not restart it: it stops at once and says why,
 * instead of a minute of restarts ending in a timeout. Kubernetes restarts it regardless,
 * and CrashLoopBackOff with the logged reason is what an operator sees there.
 */
export const EXIT_REFUSED_TO_START = 78;
