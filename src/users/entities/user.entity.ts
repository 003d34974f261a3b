import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type UserStatus = 'active' | 'on_hold';

@Entity('users')
export class User {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Stored lower-cased; logins compare case-insensitively. */
  @Column('text', { unique: true })
  login: string;

  @Column('text')
  name: string;

  @Column('text', { name: 'password_hash' })
  passwordHash: string;

  @Column('text', { default: 'active' })
  status: UserStatus;

  @Column('integer', { name: 'failed_attempts', default: 0 })
  failedAttempts: number;

  @Column('boolean', { name: 'password_change_required', default: false })
  passwordChangeRequired: boolean;

  @Column('timestamptz', { name: 'temporary_password_expires_at', nullable: true })
  temporaryPasswordExpiresAt: Date | null;

  @Column('timestamptz', { name: 'temporary_password_used_at', nullable: true })
  temporaryPasswordUsedAt: Date | null;

  @Column('timestamptz', { name: 'held_at', nullable: true })
  heldAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
