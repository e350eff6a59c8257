// The permission policy as a validated option: the zod enum of the policy table's names (policies.ts).
import { z } from "zod";
import { PERMISSION_POLICIES } from "./policies.js";

export const PermissionPolicy = z.enum(PERMISSION_POLICIES);
export type PermissionPolicy = z.infer<typeof PermissionPolicy>;
