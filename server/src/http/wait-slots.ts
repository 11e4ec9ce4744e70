// Room for long polls (`Prefer: wait=N`): each holds a connection for up to a minute, and 1,000 of them fit in
// one user's default request rate, so one user held 998 of 1,000 connections and nobody else got an answer
// (issue 27). A user may hold `perUser` at once, and all users `total`; beyond either the job is answered at once,
// without Preference-Applied, and the client polls with a pause instead.

export interface WaitSlots {
  /** A slot for `user`'s long poll, released by the function returned; undefined when there is no room. */
  take(user: string): (() => void) | undefined;
}

export function waitSlots(perUser: number, total: number): WaitSlots {
  const held = new Map<string, number>();
  let all = 0;
  return {
    take(user) {
      const mine = held.get(user) ?? 0;
      if (mine >= perUser || all >= total) return undefined;
      held.set(user, mine + 1);
      all++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        all--;
        const left = held.get(user)! - 1;
        if (left > 0) held.set(user, left);
        else held.delete(user);
      };
    },
  };
}
