/** A progress bar on stderr for the maintenance commands: `[#####.....] 12/40 events`. */
export const progressBar =
  (unit: string) =>
  (done: number, total: number): void => {
    const width = 30;
    const filled = total ? Math.round((done / total) * width) : width;
    process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${unit}`);
  };
