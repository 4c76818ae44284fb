/** First in, first out, with a moving head: `shift()` on a long array copies it. */
export class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  push(item: T): void {
    this.items.push(item);
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head++]!;
    if (this.head === this.items.length) [this.items, this.head] = [[], 0];
    else if (this.head > 1024 && this.head * 2 > this.items.length)
      [this.items, this.head] = [this.items.slice(this.head), 0];
    return item;
  }

  forEach(visit: (item: T) => void): void {
    for (let index = this.head; index < this.items.length; index++) visit(this.items[index]!);
  }

  /** Keeps only what `keep` says, in order. */
  filter(keep: (item: T) => boolean): void {
    this.items = this.items.slice(this.head).filter(keep);
    this.head = 0;
  }
}
