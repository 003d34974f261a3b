import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AccessService } from '../access/access.service';
import { RouteScanner } from '../access/route-scanner';
import { ApiGroupDto, ApiListDto, InfoDto } from './actuator.dto';

export const API_VERSION = '4.10.0';

function readCommit(): string | null {
  const file = join(__dirname, '..', '..', '..', 'BUILD_COMMIT');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || null : null;
}

@Injectable()
export class ActuatorService implements OnApplicationBootstrap {
  private list: ApiListDto = { totalNumberOfAPIs: 0, records: [] };
  private readonly startedAt = new Date().toISOString();
  private readonly commit = readCommit();

  constructor(
    private readonly scanner: RouteScanner,
    private readonly access: AccessService,
  ) {}

  /** Built once at start-up from the routes' own metadata. */
  onApplicationBootstrap(): void {
    const groups = new Map<string, ApiGroupDto>();
    for (const route of this.scanner.routes()) {
      if (!route.path.startsWith('/api/')) continue;
      const access = route.access;
      const permissions = access && !access.public ? [...access.permissions] : [];
      const group = groups.get(route.tag) ?? {
        name: route.tag,
        tag: route.tag,
        description: `${route.tag} APIs`,
        number_of_APIs: 0,
        records: [],
      };
      group.records.push({
        HTTP_method: route.method,
        path: route.path,
        permissions,
        roles: access && !access.public ? this.access.rolesHolding(access.permissions) : [],
        tags: route.tags,
        request_parameters: route.requestParameters,
        public: access?.public === true,
      });
      group.number_of_APIs = group.records.length;
      groups.set(route.tag, group);
    }
    const records = [...groups.values()].sort((a, b) => a.name.localeCompare(b.name));
    this.list = { totalNumberOfAPIs: records.reduce((n, g) => n + g.number_of_APIs, 0), records };
  }

  apiList(): ApiListDto {
    return this.list;
  }

  info(): InfoDto {
    return {
      name: 'finapi',
      version: API_VERSION,
      build: { packageVersion: API_VERSION, startedAt: this.startedAt, commit: this.commit },
    };
  }
}
