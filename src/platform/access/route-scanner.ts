import { Injectable, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { getMetadataStorage } from 'class-validator';
import { GLOBAL_PREFIX } from '../common/http';
import { ACCESS_KEY, AccessRule } from './access.decorators';

export interface RouteInfo {
  controller: string;
  tag: string;
  description: string;
  method: string;
  /** Full path as clients call it, parameters written `{name}`. */
  path: string;
  access: AccessRule | undefined;
  tags: string[];
  requestParameters: string[];
}

function joinPath(...parts: string[]): string {
  const joined =
    '/' +
    parts
      .map((p) => p.replace(/^\/+|\/+$/g, ''))
      .filter(Boolean)
      .join('/');
  return joined.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

// @nestjs/swagger's metadata keys (its constants are not exported).
const DECORATORS = { API_TAGS: 'swagger/apiUseTags', API_OPERATION: 'swagger/apiOperation' };
const BODY_PARAM = 3; // RouteParamtypes.BODY
const QUERY_PARAM = 4; // RouteParamtypes.QUERY

/** Walks every controller handler once; feeds the guard's boot check, the api-list and tests. */
@Injectable()
export class RouteScanner {
  private cache?: RouteInfo[];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  routes(): RouteInfo[] {
    if (this.cache) return this.cache;
    const routes: RouteInfo[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const type = wrapper.metatype as (new (...args: unknown[]) => unknown) | undefined;
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!type || !instance) continue;
      const controllerPath = (Reflect.getMetadata(PATH_METADATA, type) as string | string[] | undefined) ?? '';
      const base = Array.isArray(controllerPath) ? controllerPath[0] : controllerPath;
      const classTags = (Reflect.getMetadata(DECORATORS.API_TAGS, type) as string[] | undefined) ?? [];
      for (const name of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance) as object)) {
        const handler = instance[name] as (...args: unknown[]) => unknown;
        const methodPath = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (methodPath === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
        const access = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_KEY, [handler, type]);
        const operation = Reflect.getMetadata(DECORATORS.API_OPERATION, handler) as { summary?: string } | undefined;
        const tags = [...classTags, ...((Reflect.getMetadata(DECORATORS.API_TAGS, handler) as string[] | undefined) ?? [])];
        for (const mp of Array.isArray(methodPath) ? methodPath : [methodPath]) {
          const path = joinPath(GLOBAL_PREFIX, base, mp);
          routes.push({
            controller: type.name,
            tag: tags[0] ?? type.name.replace(/Controller$/, ''),
            description: operation?.summary ?? '',
            method,
            path,
            access,
            tags,
            requestParameters: this.parameters(type, name, path),
          });
        }
      }
    }
    this.cache = routes;
    return routes;
  }

  private parameters(type: object, handlerName: string, path: string): string[] {
    const names = [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]);
    const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, type.constructor === Function ? type : type.constructor, handlerName) ??
      {}) as Record<string, { index: number; data?: unknown }>;
    const paramTypes = (Reflect.getMetadata('design:paramtypes', (type as { prototype: object }).prototype, handlerName) ??
      []) as unknown[];
    for (const [key, arg] of Object.entries(args)) {
      const kind = Number(key.split(':')[0]);
      if (kind !== BODY_PARAM && kind !== QUERY_PARAM) continue;
      const dto = paramTypes[arg.index];
      if (typeof dto !== 'function') continue;
      const props = getMetadataStorage()
        .getTargetValidationMetadatas(dto, '', true, false)
        .map((m) => m.propertyName);
      names.push(...new Set(props));
    }
    return [...new Set(names)];
  }
}
