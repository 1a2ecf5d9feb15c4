/**
 * Every request a test helper sends to an emulator goes out on a connection of its own: undici with
 * `pipelining: 0` sends `connection: close` and never puts the socket back in a pool, so no request
 * can go out on a connection that sat idle while the test process was blocked.
 *
 * Why not keep-alive: a test process blocks for seconds to minutes at a time (execFileSync of npm,
 * tsc, the Pulumi CLI build, a program run). Meanwhile the emulator closes the idle connection after
 * its 30 s keep-alive, and the blocked process sees nothing: undici's own keep-alive timer counts
 * event-loop ticks, not wall time, and its pool can then write the next request on the closed socket
 * before it reads the close ("SocketError: other side closed"; reproduced with undici 7.30, two
 * requests then a block longer than the server's keep-alive). A connection per request costs a
 * loopback connect and has no idle state to go stale. The provider's own client keeps its pool: that
 * is the code under test (test/a-connection-the-server-closed-while-idle-…).
 */
import { Agent, setGlobalDispatcher } from "undici";

/** The dispatcher for helpers that talk to an emulator: a new connection per request. */
export const freshConnectionPerRequest = new Agent({ pipelining: 0 });

/** Makes it undici's global dispatcher, for every `request()` a test file sends (jest setup). */
export function useFreshConnectionPerRequest(): void {
  setGlobalDispatcher(freshConnectionPerRequest);
}
