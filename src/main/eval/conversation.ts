// The model's conversation beside its trajectory (`<stem>.messages.json`; docs/DESIGN.md section
// 11: a model's process log holds its messages), so a resumed episode continues the conversation
// it had instead of starting over from a note. Written after every turn, whole or not at all.
// Input/output: the file, {steps, client, state}. Invariant: a conversation is used only when it
// was saved after exactly the calls the trajectory holds (a crash between the two falls back to
// the environment's resume note), and only by a client of the same provider and model.
import { z } from 'zod';
import { readJsonOrNull } from '../io/json-file';
import { writeFileAtomic } from '../io/write-atomic';

export const conversationPathOf = (log: string): string => log.replace(/\.jsonl$/, '') + '.messages.json';

const ConversationSchema = z.strictObject({
  steps: z.number().int().nonnegative().describe('charged calls in the trajectory when it was saved'),
  client: z.string().describe('provider:model of the client whose state this is'),
  state: z.unknown(),
});
export type Conversation = z.infer<typeof ConversationSchema>;

export function saveConversation(log: string, c: Conversation): void {
  writeFileAtomic(conversationPathOf(log), JSON.stringify(c) + '\n');
}

export function loadConversation(log: string): Conversation | null {
  return readJsonOrNull(conversationPathOf(log), ConversationSchema);
}
