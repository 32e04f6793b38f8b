// What each route of the contract does, in Spanish, for the API document (/api/openapi.json)
// that publishers, ad-tag integrators and ingest clients read. Typed against the contract, so
// a route added without its description does not compile.
import type { Contract } from './index.js';
import { PUBLISHER_DATA_SORT_KEYS } from './reports.js';

export interface RouteDoc {
  /** One short sentence: what the route does. */
  summary: string;
  /** Details a caller needs: formats, limits, what an error means. */
  description?: string;
  /** What a path or query parameter means on this route, where it differs from PARAMETER_DOCS. */
  params?: Record<string, string>;
}

/**
 * What each path/query parameter (and JSON body field) of the contract means, by name: the
 * names are the same on every route. A route's `params` override one where it means more.
 */
export const PARAMETER_DOCS: Record<string, string> = {
  start_date: 'Primer día del rango, `AAAA-MM-DD` (zona horaria de los informes). Rango de 800 días como máximo (Finance: 3660).',
  end_date: 'Último día del rango, `AAAA-MM-DD`, incluido.',
  zone_id: 'Parte del id de zona, sin distinguir mayúsculas. `Todos` o vacío: sin filtro.',
  advertiser: 'Advertiser. `Todos` o vacío: sin filtro.',
  publisher: 'Publisher. `Todos` o vacío: sin filtro.',
  geo: 'País (geo). `Todos` o vacío: sin filtro.',
  source: 'Source. `Todos` o vacío: sin filtro.',
  domain: 'Dominio. `Todos` o vacío: sin filtro.',
  sort: 'Orden: `clave` o `clave:asc|desc` sobre una columna de la tabla; vacío: el orden por defecto de la tabla.',
  page: 'Página, desde 1; una página más allá de la última responde la última.',
  page_size: 'Filas por página (hasta 500).',
  format: '`json`: una página; `csv` (con BOM, las columnas de la pantalla) o `ndjson`: todas las filas que cumplen los filtros, en streaming.',
  limit: 'Cuántos elementos por lista (1–50; 5 por defecto).',
  token: 'Token del publisher (Usuarios → API Tokens).',
  from_date: 'Primer día del rango, `AAAA-MM-DD`.',
  to_date: 'Último día del rango, `AAAA-MM-DD`, incluido (800 días como máximo).',
  status: 'Estado de las campañas: `ACTIVE` (por defecto), `PAUSED` o `ALL` (también `Activas`, `Pausadas`, `Todas`).',
  keyword: 'Palabra clave (más de 2 caracteres).',
  zoneId: 'Parte del id de zona, sin distinguir mayúsculas.',
  parentDomain: 'Source: el dominio padre exacto. `Todos` o vacío: sin filtro.',
  startDate: 'Desde: ISO 8601 con zona (`…Z`, `…+01:00`), hora local de la zona de los informes, o un día `AAAA-MM-DD` (su comienzo). Sin él: hoy.',
  endDate: 'Hasta: como `startDate`; un día `AAAA-MM-DD` cuenta hasta su final. Sin él: hoy.',
  before_id: 'Fija las páginas en los eventos hasta este id (el `latest_id` de la primera página), para que los nuevos no las desplacen.',
  lastEventId: 'Reanuda tras este id de evento (alternativa a la cabecera `Last-Event-ID`).',
  access_token: 'El token de sesión (EventSource no puede enviar la cabecera `Authorization`).',
  id: 'Id del usuario.',
  session_id: 'Id de la sesión (de la lista de sesiones del usuario).',
  email: 'Email (sin distinguir mayúsculas).',
  password: 'Contraseña.',
  current_password: 'La contraseña actual.',
  new_password: 'La contraseña nueva (8–256 caracteres).',
  first_name: 'Nombre.',
  last_name: 'Apellidos.',
  is_admin: 'Administrador: gestiona usuarios, tokens y revenue share.',
  publisher_name: 'Nombre del publisher.',
  name: 'Nombre del publisher.',
  revenue_share: 'Parte del revenue para el publisher, de 0 a 2 (0.7 = 70 %).',
};

export type ContractDocs = { [Area in keyof Contract]: { [Name in keyof Contract[Area]]: RouteDoc } };

/** The document's section (tag) of each area. */
export const AREA_TAGS: { [Area in keyof Contract]: string } = {
  health: 'Estado',
  auth: 'Sesión',
  admin: 'Administración',
  dashboard: 'Dashboard',
  adReport: 'Ad Report y Api Explorer',
  demand: 'Demand',
  finance: 'Finance',
  publisher: 'Publishers (URL con token)',
  ingest: 'Ingesta',
  publishers: 'Revenue share',
  campaigns: 'Campañas (Meta)',
  referrers: 'Referrers',
};

const TABLE =
  'Tabla paginada en el servidor: `sort` (`clave:asc|desc`), `page`, `page_size` (hasta 500); la respuesta trae `rows`, `total_rows`, `page`, `page_count` y `totals` de todas las filas que cumplen los filtros. Con `format=csv` o `format=ndjson` devuelve todas las filas en streaming.';

export const ROUTE_DOCS: ContractDocs = {
  health: {
    check: {
      summary: 'Estado del servidor',
      description:
        'Versión, hora y zona horaria de los informes (las fechas son días de esa zona), y el bus en vivo (`live`: `memory` o `redis`, y si responde). Público.',
    },
  },
  auth: {
    login: {
      summary: 'Inicia sesión',
      description:
        'Devuelve un token de sesión (JWT) para la cabecera `Authorization: Bearer`. Los intentos fallidos se limitan por dirección y email (5), por cuenta desde cualquier dirección (10) y por dirección en todas las cuentas (30), cada 15 minutos: 429 con `Retry-After`. Con demasiadas verificaciones de contraseña en cola, 503 con `Retry-After` al instante.',
    },
    logout: {
      summary: 'Cierra la sesión',
      description: 'El token deja de valer en el acto, en todas las instancias; sus flujos en vivo se cierran en segundos.',
    },
    me: { summary: 'Usuario de la sesión', description: 'Email, nombre, si es administrador y cuándo expira la sesión.' },
    mySessions: {
      summary: 'Mis sesiones abiertas',
      description: 'Inicio, expiración, último uso (al minuto), IP y navegador de cada sesión; `current` marca la de este token.',
    },
    changePassword: {
      summary: 'Cambia la contraseña',
      description:
        'Pide la actual (una equivocada cuenta como un inicio de sesión fallido, con los mismos límites); devuelve un token nuevo. Todas las demás sesiones del usuario, y la de este token, terminan.',
    },
  },
  admin: {
    listUsers: { summary: 'Lista los usuarios' },
    createUser: { summary: 'Crea un usuario', description: 'El email es único sin distinguir mayúsculas (409 si ya existe).' },
    updateUser: { summary: 'Modifica un usuario', description: 'Los campos vacíos no se cambian.' },
    deleteUser: { summary: 'Elimina un usuario', description: 'El administrador protegido no se puede eliminar. Sus sesiones terminan.' },
    userSessions: { summary: 'Sesiones abiertas de un usuario', description: 'Inicio, expiración, último uso (al minuto), IP y navegador.' },
    endUserSessions: {
      summary: 'Cierra todas las sesiones de un usuario',
      description: 'Sus tokens dejan de valer en el acto; responde cuántas se cerraron.',
    },
    endUserSession: { summary: 'Cierra una sesión de un usuario', description: '404 si el usuario no tiene esa sesión.' },
    listTokens: { summary: 'Lista los tokens de publishers' },
    createToken: { summary: 'Crea el token de un publisher', description: 'Un token por publisher (409 si ya tiene uno: renuévalo).' },
    renewToken: { summary: 'Renueva el token de un publisher', description: 'El token anterior deja de valer.' },
    deleteToken: { summary: 'Elimina un token de publisher', params: { token: 'El token a eliminar.' } },
  },
  dashboard: {
    rawOptions: { summary: 'Opciones de filtro', description: 'Advertisers, publishers, geos y sources conocidos.' },
    overview: {
      summary: 'Tarjetas del Dashboard',
      description: 'Revenue, margin, impresiones, clicks, CTR y TQ del rango con sus filtros, y la tendencia por día.',
    },
    aggregated: {
      summary: "Tabla 'Analytics' del Dashboard",
      description: `Una fila por día con datos (\`format=csv\`: resumen_diario.csv, todos los días). ${TABLE}`,
    },
    deltas: { summary: 'Variación diaria', description: 'Ayer frente a anteayer, en porcentaje, por métrica.' },
    top: { summary: 'Top Zones y Top Advertisers', description: 'Los que más revenue dieron en el rango, ordenados en el servidor.' },
  },
  adReport: {
    zoneDetails: {
      summary: 'Resumen diario por zona',
      description: `Una fila por día, zona, advertiser, publisher, geo y source, con las opciones de Geo y Source del rango (\`format=csv\`: adreport_zonas.csv, todas las filas). ${TABLE}`,
    },
    publisherSummary: { summary: 'Resumen por publisher', description: `Una fila por día y publisher. ${TABLE}` },
    advertiserSummary: { summary: 'Resumen por advertiser', description: `Una fila por día y advertiser. ${TABLE}` },
    explorer: {
      summary: 'Api Explorer: filas por zona',
      description: `La tabla de zonas con sus columnas (\`format=csv\`: ad_report.csv, todas las filas). ${TABLE}`,
    },
    revenueCards: {
      summary: 'Tarjetas del Api Explorer',
      description: 'Revenue de ayer, hoy y el mes en curso de todo el tráfico, y el del rango con sus filtros.',
    },
  },
  demand: {
    advertiserRevenue: {
      summary: 'Demand: revenue y margin diarios por advertiser',
      description:
        'Un punto por día del rango para cada advertiser (los días sin datos a 0), advertisers por revenue, y los totales de cada uno en el rango (`format=csv`: demand_{inicio}_to_{fin}.csv, una fila por advertiser y día).',
    },
  },
  finance: {
    advertisers: {
      summary: 'Revenue mensual por advertiser',
      description: `Una columna por mes y el total; la fila TOTAL suma al céntimo. ${TABLE}`,
    },
    publishers: { summary: 'Revenue mensual por publisher', description: `Misma fila TOTAL que la tabla de advertisers. ${TABLE}` },
    margin: { summary: 'Margen mensual', description: 'Del dominio elegido o del total.' },
    domains: { summary: 'Dominios del filtro de Finance' },
  },
  publisher: {
    data: {
      summary: 'Datos de un publisher (URL con token)',
      description:
        'Las filas propias del publisher (fecha, zona, geo, impresiones, clicks, revenue del publisher), nunca el revenue ni el margen del advertiser. Token en `token`; 401 si falta o no existe. JSON de 500 filas por página; `format=csv|ndjson` devuelve todas.',
      params: {
        token: 'Token del publisher (el de su URL); sin él o si no existe, 401.',
        sort: `Orden de todo el resultado antes de paginar: \`clave\` o \`clave:asc|desc\`, con clave ${PUBLISHER_DATA_SORT_KEYS.join(', ')}. Por defecto: date desc, zone_id, geo.`,
      },
    },
  },
  ingest: {
    zoneReport: {
      summary: 'Importa informes de zona',
      description:
        'CSV con cabecera (`text/csv`), NDJSON (`application/x-ndjson`) o un array JSON (`application/json`), opcionalmente con `Content-Encoding: gzip`; hasta 200 MB (el array JSON, 50 MB). Campos de cada fila: obligatorios `date` (AAAA-MM-DD), `advertiser`, `publisher`, `zone_id`, `impressions`, `clicks`, `revenue`; opcionales `geo`, `source`, `domain`, `monetized_impressions`, `rate_applied` (0–2), `p_revenue`, `margin`, `tq`. Sin `p_revenue` ni `margin` se calculan con el revenue share del publisher. Reimportar la misma clave (día, zona, advertiser, publisher, geo, source) reemplaza la fila; una clave repetida dentro del mismo archivo guarda su última línea, y las repetidas se listan en `duplicates` con la línea donde apareció la clave (hasta 1000; `duplicates_total` las cuenta todas). Las líneas rechazadas (un valor que falta o no vale, un importe o un recuento negativo) se listan con su número (hasta 1000; `rejected_total` las cuenta todas); las demás se guardan. Con la clave de ingesta (`X-Ingest-Key` o `Authorization: Bearer`) o una sesión de administrador.',
    },
  },
  publishers: {
    list: {
      summary: 'Revenue share de los publishers',
      description: 'Los configurados y los vistos en los datos (con el valor por defecto), por nombre.',
    },
    set: {
      summary: 'Fija el revenue share de un publisher',
      description: 'Lo crea si es nuevo. Se aplica a las importaciones posteriores que no traen p_revenue ni margin.',
    },
  },
  campaigns: {
    imageSuggestions: {
      summary: 'Imágenes sugeridas para una palabra clave (Pixabay)',
      params: { query: 'Palabra clave (más de 2 caracteres).', page: 'Página de resultados, de 1 a 5.' },
    },
    generateCopy: { summary: 'Texto sugerido para un anuncio', description: 'Titular, cuerpo y llamada a la acción para la palabra clave.' },
    create: {
      summary: 'Crea una campaña de Meta',
      description: 'Formulario `multipart/form-data` con los campos de la campaña y la imagen. Si un paso falla en Meta, lo ya creado se deshace.',
    },
    insights: { summary: 'Campañas con sus métricas (Meta)', description: TABLE },
    list: { summary: 'Campañas creadas desde la consola', description: 'La más reciente primero.' },
  },
  referrers: {
    report: { summary: 'Referrers del rango', description: `Referrers distintos con sus visitas. ${TABLE}` },
    logs: {
      summary: 'Log de eventos de referrers',
      description: `Eventos en bruto, el más reciente primero; \`before_id\` fija las páginas mientras llegan nuevos. ${TABLE}`,
    },
    filters: { summary: 'Opciones de filtro de Referrers' },
    stream: {
      summary: 'Log de referrers en vivo (server-sent events)',
      description:
        '`text/event-stream`: `id:` el id del evento, `data:` el evento en JSON, un comentario de latido cada 15 s. Se reanuda con la cabecera `Last-Event-ID` o `lastEventId`. Acepta el token de sesión en `access_token` (EventSource no envía cabeceras).',
    },
    hit: {
      summary: 'Beacon de la etiqueta de anuncio',
      description: 'Público. Registra una visita a una zona; 204, o un GIF de 1×1 con `format=gif`.',
      params: {
        zone_id: 'Id de la zona (obligatorio).',
        ref: 'URL del referrer.',
        kw: 'Palabra clave.',
        src: 'Source: el dominio padre o su URL.',
        format: '`gif`: responde un GIF transparente de 1×1 en lugar de 204.',
        event_id:
          'Clave de la visita que da la etiqueta (hasta 64 caracteres ASCII imprimibles): la misma clave en los últimos 7 días se guarda una sola vez.',
      },
    },
    ingest: {
      summary: 'Importa eventos de referrers por lotes',
      description:
        'NDJSON, un evento `ReferrerEvent` por línea (`application/x-ndjson`, opcionalmente gzip), hasta 16 MB y 100 000 eventos (413 si se pasa). `parent_domain` por defecto es el host del referrer; `seen_at`, la hora de llegada; publisher y advertiser salen de la zona; `ip` debe ser una IPv4/IPv6 válida. El lote se guarda entero o nada: una línea mal formada lo rechaza con 400 `línea N: …`. Reintentar es seguro: un evento con `event_id` (hasta 64 caracteres) ya guardado en los últimos 7 días, en este lote o en otro, no se guarda otra vez, y reenviar un lote con la misma cabecera `Idempotency-Key` (hasta 128 caracteres) no guarda ninguno de sus eventos sin `event_id` de nuevo; la respuesta dice cuántos se guardaron (`accepted`) y cuántos eran duplicados (`duplicates`). Con la clave de ingesta (`X-Ingest-Key` o `Authorization: Bearer`) o una sesión de administrador.',
    },
  },
};
