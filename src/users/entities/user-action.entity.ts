import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type UserActionKind =
  | 'login_succeeded'
  | 'login_failed'
  | 'login_refused_on_hold'
  | 'user_held'
  | 'user_released'
  | 'user_created'
  | 'password_changed'
  | 'logout';

/** An audit record: who did what to which user, when, and from which address. */
@Entity('user_actions')
export class UserAction {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** The user acted upon; null for a login attempt with an unknown login. */
  @Column('uuid', { name: 'user_id', nullable: true })
  userId: string | null;

  /** Who acted, when it was not the user themself (e.g. the releasing administrator). */
  @Column('uuid', { name: 'actor_user_id', nullable: true })
  actorUserId: string | null;

  @Column('text')
  action: UserActionKind;

  @Column('text', { nullable: true })
  login: string | null;

  @Column('text', { nullable: true })
  address: string | null;

  @Column('jsonb', { default: {} })
  details: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
