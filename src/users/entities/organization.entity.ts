import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { OrganizationType } from '../../access/permissions';

/** The operator's support organization, seeded by the first migration. */
export const SUPPORT_ORGANIZATION_ID = '00000000-0000-4000-8000-000000000001';
/** Owns the technical coins (bank settlement, commission, …). */
export const SYSTEM_ORGANIZATION_ID = '00000000-0000-4000-8000-000000000002';

@Entity('organizations')
export class Organization {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('organizations_type_idx')
  @Column('text')
  type: OrganizationType;

  @Column('text')
  name: string;

  @Column('text', { name: 'identification_status', default: 'none' })
  identificationStatus: string;

  @Column('uuid', { name: 'contract_id', unique: true, default: () => 'gen_random_uuid()' })
  contractId: string;

  @Column('text', { name: 'person_type', default: 'base' })
  personType: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
