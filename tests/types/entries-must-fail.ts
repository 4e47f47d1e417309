// Worker mode is only in "agentwire": a protocol's entry does not export it.
// @ts-expect-error WorkerClient is not in agentwire/core
import { WorkerClient } from "agentwire/core";
export const w = WorkerClient;
