// LangGraph's SDK: Client (assistants, threads, runs.stream over SSE).
export { Client } from '@langchain/langgraph-sdk';
