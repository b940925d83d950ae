import { z } from 'zod';

export const webhookUrlField = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048);

export const createMerchantSchema = z.object({
  name: z.string().trim().min(1).max(100),
  webhookUrl: webhookUrlField.optional(),
});
