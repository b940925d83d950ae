/** The bare workflow's one activity (bench/bare-workflow/workflows.ts): it does nothing. */
export const bareActivities = {
  async noop(): Promise<void> {},
};
