// Ctrl-C during long work: the first one asks the work to stop at its next step (and says what will
// happen), a second one exits at once. The previous SIGINT listeners are put back afterwards.

/** Runs `work(shouldStop)`; `onFirst` is called on the first Ctrl-C (e.g. to end a progress line). */
export async function withInterrupt<T>(message: string, work: (shouldStop: () => boolean) => Promise<T>, onFirst?: () => void): Promise<T> {
  let stop = false;
  const previous = process.listeners('SIGINT');
  for (const l of previous) process.removeListener('SIGINT', l);
  const onSigint = () => {
    if (stop) process.exit(130);
    stop = true;
    onFirst?.();
    process.stderr.write(`lucid: interrupted: ${message} (Ctrl-C again to quit)\n`);
  };
  process.on('SIGINT', onSigint);
  try {
    return await work(() => stop);
  } finally {
    process.removeListener('SIGINT', onSigint);
    for (const l of previous) process.on('SIGINT', l);
  }
}
