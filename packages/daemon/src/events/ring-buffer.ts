/**
 * Fixed-capacity ring: pushing onto a full ring drops the oldest item. O(1) push and indexed
 * access, so an 8000-event ring costs no shifting per publish.
 */
export class RingBuffer<T> implements Iterable<T> {
  readonly capacity: number;
  #items: (T | undefined)[];
  #start = 0;
  #size = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) {
      throw new RangeError(`ring capacity must be a non-negative integer, got ${capacity}`);
    }
    this.capacity = capacity;
    this.#items = new Array(capacity);
  }

  get size(): number {
    return this.#size;
  }

  /** Adds `item`; returns the item it pushed out, if the ring was full. */
  push(item: T): T | undefined {
    if (this.capacity === 0) return item;
    if (this.#size < this.capacity) {
      this.#items[(this.#start + this.#size) % this.capacity] = item;
      this.#size += 1;
      return undefined;
    }
    const dropped = this.#items[this.#start];
    this.#items[this.#start] = item;
    this.#start = (this.#start + 1) % this.capacity;
    return dropped;
  }

  /** Takes the oldest item out, or undefined when empty. */
  shift(): T | undefined {
    if (this.#size === 0) return undefined;
    const item = this.#items[this.#start];
    this.#items[this.#start] = undefined;
    this.#start = (this.#start + 1) % this.capacity;
    this.#size -= 1;
    return item;
  }

  /** The item at position `index` counted from the oldest (0), or undefined out of range. */
  at(index: number): T | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.#size) return undefined;
    return this.#items[(this.#start + index) % this.capacity];
  }

  first(): T | undefined {
    return this.at(0);
  }

  last(): T | undefined {
    return this.at(this.#size - 1);
  }

  clear(): void {
    this.#items = new Array(this.capacity);
    this.#start = 0;
    this.#size = 0;
  }

  toArray(): T[] {
    return [...this];
  }

  *[Symbol.iterator](): Iterator<T> {
    for (let i = 0; i < this.#size; i += 1) yield this.at(i) as T;
  }
}
