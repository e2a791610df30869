export { writeBackup, backupFolderName, DUMP_ORDER, type BackupSource, type BackupReport } from './backup';
export { restoreBackup, checkTargetEmpty, type RestoreTarget, type RestoreReport } from './restore';
export { verifyBackup } from './verify';
export { pruneBackups, type Pruned } from './retention';
export * from './layout';
