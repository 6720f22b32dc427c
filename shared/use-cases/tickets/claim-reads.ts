import { claimInfo, type ClaimInfo } from '../../domain/claim.ts';
import { liveTicketRecord } from './read-tickets.ts';

/** The claim read routes: one GetItem of the ticket each (unknown or deleted → 404). */
export async function readClaimInfo(ticketId: number): Promise<ClaimInfo> {
  return claimInfo(await liveTicketRecord(ticketId));
}
