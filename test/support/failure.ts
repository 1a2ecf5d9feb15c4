/** Awaits a promise that must reject and returns what it rejected with; fulfilment fails the test. */
export async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected the call to fail");
}
