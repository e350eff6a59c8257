// The daemon's answer journal (docs/restore.md "The guarantees": an acknowledged answer is never lost).
export { type AnswerJournal, memoryAnswerJournal, storedAnswerJournal } from "./answer-journal.js";
export { AnswerEntry, JournalEntry, parseAnswerJournal, WithdrawnEntry } from "./answer-record.js";
export {
  answerEntryFor,
  decisionOf,
  findJournaledAnswer,
  isUserQuestion,
  type JournalLookup,
  type JournalQuery,
  type QuestionRequest,
  questionCallId,
  questionsKeyOf,
  transcriptHoldsCall,
  withdrawalOf,
} from "./journaled-answer.js";
export { KeyedSerializer } from "./keyed-serializer.js";
