/**
 * The user-level facts every sandbox policy of one engine shares: the home folder, this
 * product's own state (the approval store's folder, the history's folder) and the paths the
 * `workspaceTools.sandboxDenyRead` setting (`--sandbox-deny-read`) adds. Made once per engine
 * (the server, the extension) and handed to whatever builds or describes a policy.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import type { PolicyPlace } from './sandbox-policy';

/** A PolicyPlace before the tool's folder is known. */
export type UserPlace = Omit<PolicyPlace, 'folder'>;

export interface UserPlaceOptions {
  /** The approval store in use (its folder is hidden from every tool). */
  readonly approvalStorePath: string;
  /** The history file in use, if any (its folder is hidden too). */
  readonly historyPath?: string;
  readonly extraDenyRead?: readonly string[];
  readonly home?: string;
}

export function userPlace(options: UserPlaceOptions): UserPlace {
  const statePaths = [options.approvalStorePath, ...(options.historyPath === undefined ? [] : [options.historyPath])].map((file) => path.dirname(path.resolve(file)));
  return {
    home: options.home ?? os.homedir(),
    statePaths: [...new Set(statePaths)],
    ...(options.extraDenyRead === undefined ? {} : { extraDenyRead: options.extraDenyRead }),
  };
}

/** The place for one tool's folder. */
export function placeFor(user: UserPlace, folder: string): PolicyPlace {
  return { ...user, folder };
}
