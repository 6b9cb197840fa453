/** A repository as GET /api/github/repositories lists it. */
export interface RepoItem {
  _id: string;
  name: string;
  fullName: string;
  isPrivate: boolean;
  canPush: boolean;
  htmlUrl: string;
  defaultBranch: string;
}

export const json = async <T>(res: Response) => (await res.json()) as T;
