/**
 * Test helper: a module loaded fresh while `process.getBuiltinModule` is
 * replaced, to see what it does on a runtime without (or with a broken)
 * native hash. The global is restored afterwards.
 */
import { vi } from 'vitest';

export async function loadWithBuiltinModule<T>(value: unknown, load: () => Promise<T>): Promise<T> {
  vi.resetModules();
  const saved = Object.getOwnPropertyDescriptor(process, 'getBuiltinModule');
  Object.defineProperty(process, 'getBuiltinModule', { configurable: true, writable: true, value });
  try {
    return await load();
  } finally {
    if (saved) Object.defineProperty(process, 'getBuiltinModule', saved);
    else delete (process as unknown as Record<string, unknown>).getBuiltinModule;
  }
}
