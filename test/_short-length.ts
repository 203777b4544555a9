/** An array that says it is `length` long while holding more entries past that. */
export function shortLength<T>(items: T[], length: number): T[] {
  return new Proxy(items, {
    get(target, key, receiver) {
      return key === 'length' ? length : Reflect.get(target, key, receiver);
    },
  });
}
