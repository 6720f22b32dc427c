// The limits are rules of the domain (the events routes' input schemas state them too): shared/domain/event-limits.ts.
export { MAX_GRANTS_PER_TYPE, MAX_TICKET_TYPES, MAX_WAVE_TIMES } from '../domain/event-limits.ts';
