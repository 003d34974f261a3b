import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AccessService } from '../access/access.service';
import { RouteScanner } from '../access/route-scanner';
import { ApiGroupDto, ApiListDto, InfoDto } from './actuator.dto';

/** The release of the family's specification the API implements (not the service's own version: see CHANGELOG.md). */
export const API_VERSION = '4.10.0';

/** The service's own semantic version: package.json's, found above the running code (src/ under ts-jest, dist/src built). */
function readPackageVersion(): string {
  for (let dir = __dirname; dirname(dir) !== dir; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (manifest.name === 'finapi' && manifest.version) return manifest.version;
    }
  }
  throw new Error(`No package.json of finapi above ${__dirname}`);
}

function readCommit(): string | null {
  const file = join(__dirname, '..', '..', '..', 'BUILD_COMMIT');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || null : null;
}

@Injectable()
export class ActuatorService implements OnApplicationBootstrap {
  private list: ApiListDto = { totalNumberOfAPIs: 0, records: [] };
  private readonly startedAt = new Date().toISOString();
  private readonly commit = readCommit();
  private readonly packageVersion = readPackageVersion();

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
      build: { packageVersion: this.packageVersion, startedAt: this.startedAt, commit: this.commit },
    };
  }
}
