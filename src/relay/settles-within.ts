/** Whether `work` settled (either way) within `ms`; it goes on regardless. */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(...settled), late]);
  } finally {
    clearTimeout(timer);
  }
}

const settled = [() => true as const, () => true as const] as const;
