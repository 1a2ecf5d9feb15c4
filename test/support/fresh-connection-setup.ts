// Jest setup: test helpers' requests never reuse a connection (see fresh-connection-per-request.ts).
import { useFreshConnectionPerRequest } from "./fresh-connection-per-request";

useFreshConnectionPerRequest();
