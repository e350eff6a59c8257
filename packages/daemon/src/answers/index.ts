// The daemon's answer journal (RESTORE-SPEC guarantee 5: an acknowledged answer is never lost).
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
